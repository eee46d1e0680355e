#include "engine/fib_fibonacci/fib_fibonacci.hpp"
#include "engine/fib_fibonacci/fib_fibonacci_schema.hpp"

#include <algorithm>
#include <array>
#include <span>
#include <string_view>
#include <vector>

#include "engine/core/standard_cards.hpp"

namespace campfire::fib_fibonacci {

namespace {

namespace sc = campfire::standard;

inline constexpr int kPlayers = 2;
inline constexpr std::uint8_t kFloating = 0xFF;

constexpr int rank_of(Card c) {
  return sc::is_joker(c) ? 0 : sc::rank(c);
}
constexpr bool is_natural_run_rank(int r) {
  return r == 2 || r == 3 || r == 5 || r == 7 || r == 8;
}
// The partner of a 7 or 8 for rule 8: the other rank of the same suit.
constexpr Card pair_partner(Card c) {
  return sc::card(rank_of(c) == 7 ? 8 : 7, sc::suit(c));
}

std::string words(Card c) {
  return sc::words(c);
}
std::string side_name(int side) {
  return side == 0 ? "A" : "B";
}

// A run of cards growing from an opening; with no base it floats (its base went to a refill).
struct Run {
  std::array<Card, kMaxRunLength> cards{};
  std::array<std::uint8_t, kMaxRunLength> values{};
  std::uint8_t length = 0;
  std::uint8_t base = kFloating;
  std::uint8_t side = 0;  // 0: side A, towards seat 0; 1: side B, towards seat 1
  bool capped = false;    // a restart 6 lies on its end

  bool operator==(const Run&) const = default;
  int top() const { return values[length - 1]; }
  // FF-12: capped, or topped by an effective value of 7 or more.
  bool closed() const { return capped || (length > 0 && top() >= 7); }
  void push(Card c, int value) {
    cards[length] = c;
    values[length] = static_cast<std::uint8_t>(value);
    ++length;
  }
};

// A base: a joker (two openings) or a restart 6 (one opening, capping run `caps`); a 4 that
// replaced one keeps its role.
struct Base {
  Card card = kNoCard;
  bool restart = false;
  std::uint8_t caps = kFloating;
  bool operator==(const Base&) const = default;
};

// The values card `c` may take as the next card of `run`; returns how many were written.
int fitting_values(const Run& run, Card c, std::array<int, 4>& out) {
  if (run.capped || run.length >= kMaxRunLength) return 0;
  const int r = rank_of(c);
  const bool six = r == 6;
  if (!six && !is_natural_run_rank(r)) return 0;
  int n = 0;
  switch (run.length) {
    case 0:
      if (six) {
        for (int v = 0; v <= 3; ++v) out[n++] = v;
      } else if (r == 2 || r == 3) {
        out[n++] = r;
      }
      return n;
    case 1: {
      const int first = run.values[0];
      if (six) {
        for (int v = 3; v <= 5; ++v) {
          if (v != first) out[n++] = v;
        }
      } else if ((r == 3 || r == 5) && r != first) {
        out[n++] = r;
      }
      return n;
    }
    default: {
      const int sum = run.values[run.length - 1] + run.values[run.length - 2];
      if (sum > kMaxValue) return 0;
      if (six || r == sum) out[n++] = sum;
      return n;
    }
  }
}

enum class Ending : std::uint8_t { kNone, kEmptied, kPasses, kRepetition, kTurnLimit };

std::string_view ending_words(Ending e) {
  switch (e) {
    case Ending::kEmptied:
      return "played the last card";
    case Ending::kPasses:
      return "both players passed";
    case Ending::kRepetition:
      return "the same position with an empty draw pile came up a third time";
    case Ending::kTurnLimit:
      return "the turn limit was reached";
    case Ending::kNone:
      break;
  }
  return "";
}

std::string_view ending_code(Ending e) {
  switch (e) {
    case Ending::kEmptied:
      return "emptied-hand";
    case Ending::kPasses:
      return "two-passes";
    case Ending::kRepetition:
      return "repetition";
    case Ending::kTurnLimit:
      return "turn-limit";
    case Ending::kNone:
      break;
  }
  return "";
}

std::string_view move_name(std::uint8_t kind) {
  switch (kind) {
    case kDraw:
      return "draw";
    case kPass:
      return "pass";
    case kJoker:
      return "joker";
    case kRun:
      return "run";
    case kRestart:
      return "restart";
    case kFour:
      return "four";
    case kPair:
      return "pair";
    default:
      return "";
  }
}

std::vector<Card> full_deck() {
  std::vector<Card> d;
  d.reserve(kDeckSize);
  d.push_back(sc::kJoker1);
  d.push_back(sc::kJoker2);
  for (int r : {2, 3, 5, 7, 8}) {
    for (sc::Suit s : {sc::kClubs, sc::kDiamonds, sc::kHearts, sc::kSpades}) {
      d.push_back(sc::card(r, s));
    }
  }
  for (int r : {4, 6}) {
    for (sc::Suit s : {sc::kClubs, sc::kDiamonds}) d.push_back(sc::card(r, s));
  }
  return d;
}

class FibState final : public StateBase<FibState> {
 public:
  FibState(int series_games, int turn_limit, std::vector<Card> deck, Rng rng)
      : series_games_(series_games), turn_limit_(turn_limit), rng_(rng) {
    deal(deck, 1);
    Events silent(false);
    begin_turn(silent);
  }

  bool operator==(const FibState&) const = default;

  int seats() const override { return kPlayers; }
  bool over() const override { return over_; }
  SeatSet to_act() const override { return over_ ? SeatSet() : SeatSet::of(current_); }

  Result result() const override {
    Result r;
    const std::vector<int> won(games_won_.begin(), games_won_.end());
    r.places = Result::places_descending(won);
    for (Seat s = 0; s < kPlayers; ++s) {
      if (r.places[s] == 1) {
        r.winners.push_back(s);
      } else {
        r.losers.push_back(s);
      }
    }
    r.scores = won;  // games won, also when the series is one game
    return r;
  }

  std::string describe(Seat, const Action& a) const override {
    const Card c = static_cast<Card>(a.arg(0));
    switch (a.kind) {
      case kDraw:
        return "draw a card";
      case kPass:
        return "pass";
      case kJoker: {
        std::string s = "play " + words(c) + " as a new base";
        if (a.argc > 1) {
          const Card bonus = static_cast<Card>(a.arg(1));
          s += ", with " + words(bonus) + value_words(bonus, a.arg(3)) + " on side " +
               side_name(a.arg(2));
        }
        return s;
      }
      case kRun:
        return "play " + words(c) + value_words(c, a.arg(2)) + " on " + run_words(a.arg(1));
      case kRestart:
        return "restart " + run_words(a.arg(1)) + " with " + words(c);
      case kFour:
        return "replace " + target_words(a) + " with " + words(c) + " and take it";
      case kPair:
        return "pair " + words(c) + " with " + words(pair_chance_) + " into the side area";
      default:
        return "?";
    }
  }

  // Runs and bases are named by their position in their arrays. Members in name order, as the
  // tree's dump() writes them.
  void write_view(Seat viewer, ViewWriter& w) const override {
    const auto cards = [&](const auto& cs) {
      w.begin_array();
      for (Card c : cs) w.value(sc::code(c));
      w.end_array();
    };
    std::array<int, kMaxRuns> capped_by{};
    capped_by.fill(-1);
    for (std::size_t i = 0; i < bases_.size(); ++i) {
      if (bases_[i].restart) capped_by[bases_[i].caps] = static_cast<int>(i);
    }
    // FF-20: a player can work out both hands once the pile is dry, a spectator cannot, so
    // only the players see how often the position has come up.
    const bool player = viewer >= 0 && viewer < kPlayers;
    w.begin_object();
    w.key("bases").begin_array();
    for (const Base& b : bases_) {
      w.begin_object();
      w.key("caps");
      if (b.restart) {
        w.value(b.caps);
      } else {
        w.null();
      }
      w.member("card", sc::code(b.card));
      w.member("role", b.restart ? "restart" : "joker");
      w.end_object();
    }
    w.end_array();
    write_columns(w);
    w.key("current");
    if (over_) {
      w.null();
    } else {
      w.value(current_);
    }
    w.member("dealer", dealer_);
    w.member("drawPile", pile_.size());
    if (player) w.member("dryRepeats", dry_repeats_);
    w.member("game", game_no_ + 1);
    w.key("gamesWon").array(games_won_);
    if (player) {
      w.key("hand");
      cards(hands_[viewer]);
    }
    w.key("handCounts").begin_array().value(hands_[0].size()).value(hands_[1].size()).end_array();
    if (last_ending_ != Ending::kNone) {
      w.key("lastGame").begin_object();
      w.member("ending", ending_code(last_ending_));
      w.key("winner");
      if (last_winner_ < 0) {
        w.null();
      } else {
        w.value(last_winner_);
      }
      w.end_object();
    }
    w.key("lastPlay");
    write_last_play(w);
    w.key("pairChance");
    if (pair_chance_ != kNoCard && !over_) {
      w.begin_object();
      w.member("card", sc::code(pair_chance_));
      w.member("partner", sc::code(pair_partner(pair_chance_)));
      w.member("seat", current_);
      w.end_object();
    } else {
      w.null();
    }
    w.member("passes", passes_);
    w.member("phase", over_ ? "over" : "turn");
    if (over_) result().write(w.key("result"));
    w.key("runs").begin_array();
    for (std::size_t i = 0; i < runs_.size(); ++i) {
      const Run& r = runs_[i];
      w.begin_object();
      w.key("base");
      if (r.base == kFloating) {
        w.null();
      } else {
        w.value(r.base);
      }
      w.key("cappedBy");
      if (capped_by[i] < 0) {
        w.null();
      } else {
        w.value(capped_by[i]);
      }
      w.key("cards");
      cards(std::span(r.cards.data(), r.length));
      w.member("closed", r.closed());
      if (r.length >= 2 && !r.capped) {
        w.member("next", r.values[r.length - 1] + r.values[r.length - 2]);
      }
      w.member("opening", side_name(r.side));
      w.key("values").array(std::span(r.values.data(), r.length));
      w.end_object();
    }
    w.end_array();
    w.member("seriesGames", series_games_);
    w.key("sideArea");
    cards(side_);
    w.member("tableEmpty", table_empty());
    w.member("turn", turns_ + 1);
    w.member("turnLimit", turn_limit_);
    w.end_object();
  }

  // No timer is named by the rules; a player out of time draws, or passes, or makes the first
  // play when neither is allowed.
  Action fallback_action(Seat seat) const override {
    std::vector<Action> legal;
    legal_actions(seat, legal);
    return legal.empty() ? Action{} : legal.front();
  }

  void cards(std::vector<Card>& out) const override {
    for (const auto& h : hands_) out.insert(out.end(), h.begin(), h.end());
    out.insert(out.end(), pile_.begin(), pile_.end());
    for (const Run& r : runs_) out.insert(out.end(), r.cards.begin(), r.cards.begin() + r.length);
    for (const Base& b : bases_) out.push_back(b.card);
    out.insert(out.end(), side_.begin(), side_.end());
  }

  void hidden_from(Seat viewer, std::vector<Card*>& out) override {
    for (Seat s = 0; s < kPlayers; ++s) {
      if (s == viewer) continue;
      for (Card& c : hands_[s]) out.push_back(&c);
    }
    for (Card& c : pile_) out.push_back(&c);
  }

  // Per seat, the cards in that hand that it took from the table with a 4: everyone saw them.
  json recall(Seat) const override {
    json taken = json::array();
    for (Seat s = 0; s < kPlayers; ++s) {
      json cards = json::array();
      for (int c = 0; c < 64; ++c) {
        if (shown_[s] >> c & 1u) cards.push_back(sc::code(static_cast<Card>(c)));
      }
      taken.push_back(std::move(cards));
    }
    return {{"taken", std::move(taken)}};
  }

  // What a determinization re-deals: the other hand and the pile, except the cards the other
  // player took from the table with a 4 (both saw them go into that hand).
  void unknown_to(Seat viewer, std::vector<Card*>& out) override {
    for (Seat s = 0; s < kPlayers; ++s) {
      if (s == viewer) continue;
      for (Card& c : hands_[s]) {
        if (!(shown_[s] >> c & 1u)) out.push_back(&c);
      }
    }
    for (Card& c : pile_) out.push_back(&c);
  }

 protected:
  void do_legal_actions(Seat seat, std::vector<Action>& out) const override {
    const std::size_t first = out.size();
    if (!pile_.empty()) out.push_back(Action::make(kDraw));
    plays(seat, out);
    if (pile_.empty() && out.size() == first) out.push_back(Action::make(kPass));
  }

  // Refills and later games of a determinized copy follow the bot's generator. The other hand
  // of such a copy is in no particular order, which only its (unseen) listing shows.
  void after_redeal(Rng& rng) override { rng_.reseed(rng.next()); }

  Status do_apply(Seat seat, const Action& a, Events& events) override {
    std::vector<Action> legal;
    do_legal_actions(seat, legal);
    if (std::find(legal.begin(), legal.end(), a) == legal.end()) return refusal(seat, a);
    perform(seat, a, events);
    return std::nullopt;
  }

 private:
  // --- Setting up ---------------------------------------------------------------------------

  // Deals one card at a time starting at the dealer's left; the rest is the pile, top first.
  void deal(const std::vector<Card>& deck, Seat dealer) {
    dealer_ = dealer;
    for (auto& h : hands_) h.clear();
    shown_.fill(0);
    runs_.clear();
    bases_.clear();
    side_.clear();
    for (int i = 0; i < kHandSize * kPlayers; ++i) {
      hands_[(dealer + 1 + i) % kPlayers].push_back(deck[static_cast<std::size_t>(i)]);
    }
    for (auto& h : hands_) std::sort(h.begin(), h.end());
    pile_.assign(deck.rbegin(), deck.rend() - kHandSize * kPlayers);
    current_ = (dealer + 1) % kPlayers;
    pair_chance_ = kNoCard;
    passes_ = 0;
    turns_ = 0;
    dry_.clear();
    dry_repeats_ = 0;
    last_seat_ = -1;
    last_kind_ = 0;
    last_card_ = kNoCard;
    last_other_ = kNoCard;
  }

  // --- What may be played -------------------------------------------------------------------

  bool table_empty() const { return bases_.empty() && runs_.empty() && side_.empty(); }

  void plays(Seat seat, std::vector<Action>& out) const {
    const auto& hand = hands_[seat];
    const bool empty_table = table_empty();
    for (Card c : hand) {
      if (sc::is_joker(c)) {
        out.push_back(Action::make(kJoker, {c}));
        for (Card bonus : hand) {
          const int r = rank_of(bonus);
          for (int side = 0; side < 2; ++side) {
            if (r == 2 || r == 3) out.push_back(Action::make(kJoker, {c, bonus, side, 0}));
            if (r == 6) {
              for (int v = 0; v <= 3; ++v) out.push_back(Action::make(kJoker, {c, bonus, side, v}));
            }
          }
        }
      }
    }
    if (empty_table) return;
    std::array<int, 4> values{};
    for (Card c : hand) {
      const int r = rank_of(c);
      if (r == 4) {
        for (std::size_t b = 0; b < bases_.size(); ++b) {
          out.push_back(Action::make(kFour, {c, kZoneBase, static_cast<int>(b), 0}));
        }
        for (std::size_t i = 0; i < runs_.size(); ++i) {
          for (int p = 0; p < runs_[i].length; ++p) {
            out.push_back(Action::make(kFour, {c, kZoneRun, static_cast<int>(i), p}));
          }
        }
        for (std::size_t i = 0; i < side_.size(); ++i) {
          out.push_back(Action::make(kFour, {c, kZoneSide, static_cast<int>(i), 0}));
        }
        continue;
      }
      for (std::size_t i = 0; i < runs_.size(); ++i) {
        const int n = fitting_values(runs_[i], c, values);
        for (int k = 0; k < n; ++k) {
          out.push_back(Action::make(kRun, {c, static_cast<int>(i), r == 6 ? values[k] : 0}));
        }
        if (r == 6 && runs_[i].length > 0 && !runs_[i].capped) {
          out.push_back(Action::make(kRestart, {c, static_cast<int>(i)}));
        }
      }
      if (pair_chance_ != kNoCard && c == pair_partner(pair_chance_)) {
        out.push_back(Action::make(kPair, {c}));
      }
    }
  }

  bool holds(Seat seat, Card c) const {
    return std::find(hands_[seat].begin(), hands_[seat].end(), c) != hands_[seat].end();
  }

  // Why an action that is not in the legal list is refused.
  Error refusal(Seat seat, const Action& a) const {
    const Card c = static_cast<Card>(a.arg(0));
    auto illegal = [](std::string message) { return make_error("illegal_action", message); };
    switch (a.kind) {
      case kDraw:
        return illegal("the draw pile is empty");
      case kPass:
        return make_error("cannot_pass",
                          "you may pass only when the draw pile is empty and you have no play");
      case kJoker:
      case kRun:
      case kRestart:
      case kFour:
      case kPair:
        break;
      default:
        return make_error("bad_action", "Fib-Fibonacci has no such move");
    }
    if (a.arg(0) < 0 || a.arg(0) > 0xFF || !holds(seat, c)) {
      return make_error("not_in_hand", "you do not hold that card");
    }
    if (table_empty() && a.kind != kJoker) {
      return illegal("the table is empty: only a joker can be played");
    }
    switch (a.kind) {
      case kJoker:
        if (!sc::is_joker(c)) return illegal(words(c) + " is not a joker");
        return illegal(
            "the bonus card must be another card of yours: a 2, a 3 or a 6 worth 0 to 3, on side "
            "A or B");
      case kRun: {
        if (a.arg(1) < 0 || a.arg(1) >= static_cast<int>(runs_.size())) {
          return illegal("there is no run " + std::to_string(a.arg(1)));
        }
        const Run& run = runs_[static_cast<std::size_t>(a.arg(1))];
        if (run.capped) return illegal("that run is capped by a restart");
        return illegal(words(c) + value_words(c, a.arg(2)) + " does not fit on " +
                       run_words(a.arg(1)) + needs_words(run));
      }
      case kRestart:
        return illegal("a restart needs a 6 laid on the end of a run that has cards and no cap");
      case kFour:
        if (rank_of(c) != 4) return illegal(words(c) + " is not a 4");
        return illegal("there is no such card on the table");
      case kPair:
        if (pair_chance_ == kNoCard) {
          return illegal("your opponent did not just place a 7 or an 8");
        }
        return illegal("only " + words(pair_partner(pair_chance_)) + " pairs with " +
                       words(pair_chance_));
      default:
        return illegal("not allowed");
    }
  }

  // --- Doing it -----------------------------------------------------------------------------

  void take_from_hand(Seat seat, Card c) {
    auto& h = hands_[seat];
    h.erase(std::find(h.begin(), h.end(), c));
    shown_[seat] &= ~(std::uint64_t{1} << c);
  }
  void put_in_hand(Seat seat, Card c) {
    auto& h = hands_[seat];
    h.insert(std::lower_bound(h.begin(), h.end(), c), c);
  }

  void perform(Seat seat, const Action& a, Events& events) {
    const Card c = static_cast<Card>(a.arg(0));
    Card placed_natural = kNoCard;  // a natural 7 or 8 put on the table opens rule 8
    last_seat_ = seat;
    last_kind_ = a.kind;
    last_card_ = a.kind == kDraw || a.kind == kPass ? kNoCard : c;
    last_other_ = kNoCard;
    switch (a.kind) {
      case kDraw: {
        const Card drawn = pile_.back();
        pile_.pop_back();
        put_in_hand(seat, drawn);
        events.emit(Audience::all(), [&] {
          return json{
              {"type", "draw"}, {"seat", seat}, {"text", seat_ref(seat) + " draws a card."}};
        });
        events.emit(Audience::only(seat), [&] {
          return json{
              {"type", "drew"}, {"card", sc::code(drawn)}, {"text", "you drew " + words(drawn)}};
        });
        break;
      }
      case kPass:
        events.emit(Audience::all(), [&] {
          return json{{"type", "pass"},
                      {"seat", seat},
                      {"text", seat_ref(seat) + " cannot play and passes."}};
        });
        break;
      case kJoker: {
        take_from_hand(seat, c);
        const auto b = static_cast<std::uint8_t>(bases_.size());
        bases_.push_back(Base{c, false, kFloating});
        for (std::uint8_t side = 0; side < 2; ++side) {
          Run r;
          r.base = b;
          r.side = side;
          runs_.push_back(r);
        }
        if (a.argc > 1) {
          const Card bonus = static_cast<Card>(a.arg(1));
          take_from_hand(seat, bonus);
          runs_[runs_.size() - 2 + static_cast<std::size_t>(a.arg(2))].push(
              bonus, rank_of(bonus) == 6 ? a.arg(3) : rank_of(bonus));
          last_other_ = bonus;
        }
        events.emit(Audience::all(), [&] {
          std::string text = seat_ref(seat) + " plays " + words(c) + " as a new base";
          if (a.argc > 1) {
            const Card bonus = static_cast<Card>(a.arg(1));
            text += " with " + words(bonus) + value_words(bonus, a.arg(3)) + " on side " +
                    side_name(a.arg(2));
          }
          json e = {{"type", "joker"}, {"seat", seat}, {"card", sc::code(c)}, {"text", text + "."}};
          if (a.argc > 1) {
            e["bonus"] = sc::code(static_cast<Card>(a.arg(1)));
            e["opening"] = side_name(a.arg(2));
          }
          return e;
        });
        break;
      }
      case kRun: {
        take_from_hand(seat, c);
        Run& run = runs_[static_cast<std::size_t>(a.arg(1))];
        const int value = rank_of(c) == 6 ? a.arg(2) : rank_of(c);
        run.push(c, value);
        if (rank_of(c) == 7 || rank_of(c) == 8) placed_natural = c;
        events.emit(Audience::all(), [&] {
          return json{
              {"type", "run"},
              {"seat", seat},
              {"card", sc::code(c)},
              {"run", a.arg(1)},
              {"value", value},
              {"text", seat_ref(seat) + " plays " + words(c) + value_words(c, value) + " on " +
                           run_words(a.arg(1)) + (run.closed() ? ", closing it." : ".")}};
        });
        break;
      }
      case kRestart: {
        take_from_hand(seat, c);
        const auto capped = static_cast<std::size_t>(a.arg(1));
        runs_[capped].capped = true;
        const auto b = static_cast<std::uint8_t>(bases_.size());
        bases_.push_back(Base{c, true, static_cast<std::uint8_t>(capped)});
        Run r;
        r.base = b;
        r.side = runs_[capped].side;
        runs_.push_back(r);
        events.emit(Audience::all(), [&] {
          return json{{"type", "restart"},
                      {"seat", seat},
                      {"card", sc::code(c)},
                      {"run", a.arg(1)},
                      {"text", seat_ref(seat) + " caps " + run_words(a.arg(1)) + " with " +
                                   words(c) + ", a new base with one opening."}};
        });
        break;
      }
      case kFour: {
        take_from_hand(seat, c);
        Card* slot = target(a);
        const Card taken = *slot;
        *slot = c;
        put_in_hand(seat, taken);
        shown_[seat] |= std::uint64_t{1} << taken;
        last_other_ = taken;
        events.emit(Audience::all(), [&] {
          return json{{"type", "four"},
                      {"seat", seat},
                      {"card", sc::code(c)},
                      {"taken", sc::code(taken)},
                      {"text", seat_ref(seat) + " puts " + words(c) + " in place of " +
                                   words(taken) + " and takes " + words(taken) + "."}};
        });
        break;
      }
      case kPair:
        take_from_hand(seat, c);
        side_.push_back(c);
        placed_natural = c;
        last_other_ = pair_chance_;
        events.emit(Audience::all(), [&] {
          return json{{"type", "pair"},
                      {"seat", seat},
                      {"card", sc::code(c)},
                      {"text", seat_ref(seat) + " pairs " + words(c) + " with " +
                                   words(pair_chance_) + " and lays it in the side area."}};
        });
        break;
      default:
        break;
    }
    pair_chance_ = placed_natural;
    passes_ = a.kind == kPass ? passes_ + 1 : 0;
    if (hands_[seat].empty()) {
      end_game(seat, Ending::kEmptied, events);
      return;
    }
    if (passes_ >= 2) {
      end_stalemate(Ending::kPasses, events);
      return;
    }
    if (++turns_ >= turn_limit_) {
      end_stalemate(Ending::kTurnLimit, events);
      return;
    }
    current_ = 1 - seat;
    begin_turn(events);
  }

  Card* target(const Action& a) {
    const auto i = static_cast<std::size_t>(a.arg(2));
    switch (a.arg(1)) {
      case kZoneBase:
        return &bases_[i].card;
      case kZoneRun:
        return &runs_[i].cards[static_cast<std::size_t>(a.arg(3))];
      default:
        return &side_[i];
    }
  }

  // The start of a turn: refill an empty pile (FF-13), then note a dry position (FF-14).
  void begin_turn(Events& events) {
    if (pile_.empty()) refill(events);
    dry_repeats_ = 0;
    if (!pile_.empty()) return;
    std::string position = dry_position();
    dry_repeats_ = 1 + static_cast<int>(std::count(dry_.begin(), dry_.end(), position));
    dry_.push_back(std::move(position));
    if (dry_repeats_ >= 3) end_stalemate(Ending::kRepetition, events);
  }

  void refill(Events& events) {
    std::vector<Card> gathered;
    std::vector<Run> kept;
    for (const Run& r : runs_) {
      if (r.closed()) {
        gathered.insert(gathered.end(), r.cards.begin(), r.cards.begin() + r.length);
      } else if (r.length > 0) {
        Run floating = r;
        floating.base = kFloating;
        kept.push_back(floating);
      }
    }
    for (const Base& b : bases_) gathered.push_back(b.card);
    gathered.insert(gathered.end(), side_.begin(), side_.end());
    const std::size_t lost = static_cast<std::size_t>(
        std::count_if(runs_.begin(), runs_.end(), [](const Run& r) { return r.length == 0; }));
    if (gathered.empty()) return;
    runs_ = std::move(kept);
    bases_.clear();
    side_.clear();
    // A refill that empties the table leaves only a joker playable (rule 1): an open rule-8
    // chance ends with it (docs/rules/fib-fibonacci.md FF-11).
    if (table_empty()) pair_chance_ = kNoCard;
    events.emit(Audience::all(), [&] {
      json codes = json::array();
      std::string list;
      for (Card c : gathered) {
        codes.push_back(sc::code(c));
        list += (list.empty() ? "" : " ") + words(c);
      }
      return json{
          {"type", "refill"},
          {"cards", std::move(codes)},
          {"lostOpenings", lost},
          {"text", "The draw pile is empty: " + list + " are shuffled into a new draw pile."}};
    });
    rng_.shuffle(gathered);
    pile_ = std::move(gathered);
  }

  // Everything FF-14 compares: the player to move, the table, the side area, both hands as
  // sets and the rule-8 chance.
  std::string dry_position() const {
    std::string p;
    p.push_back(static_cast<char>(current_));
    for (const auto& h : hands_) {
      std::uint64_t mask = 0;
      for (Card c : h) mask |= std::uint64_t{1} << c;
      p.append(reinterpret_cast<const char*>(&mask), sizeof mask);
    }
    for (const Run& r : runs_) {
      p.push_back('R');
      p.push_back(static_cast<char>(r.base));
      p.push_back(static_cast<char>(r.side));
      p.push_back(static_cast<char>(r.capped));
      for (int k = 0; k < r.length; ++k) {
        p.push_back(static_cast<char>(r.cards[k]));
        p.push_back(static_cast<char>(r.values[k]));
      }
    }
    for (const Base& b : bases_) {
      p.push_back('B');
      p.push_back(static_cast<char>(b.card));
      p.push_back(static_cast<char>(b.restart));
      p.push_back(static_cast<char>(b.caps));
    }
    p.push_back('S');
    for (Card c : side_) p.push_back(static_cast<char>(c));
    p.push_back(static_cast<char>(pair_chance_));
    return p;
  }

  // --- Ending -------------------------------------------------------------------------------

  void end_stalemate(Ending why, Events& events) {
    const auto a = hands_[0].size();
    const auto b = hands_[1].size();
    end_game(a == b ? -1 : (a < b ? 0 : 1), why, events);
  }

  void end_game(Seat winner, Ending why, Events& events) {
    if (winner >= 0) ++games_won_[static_cast<std::size_t>(winner)];
    last_winner_ = winner;
    last_ending_ = why;
    const bool series_over = game_no_ + 1 >= series_games_;
    events.emit(Audience::all(), [&] {
      std::string text;
      if (why == Ending::kEmptied) {
        text = seat_ref(winner) + " played the last card and wins the game.";
      } else {
        text = "Stalemate: " + std::string(ending_words(why)) + ". " +
               (winner < 0 ? std::string("Equal hands: the game is a draw.")
                           : seat_ref(winner) + " holds fewer cards and wins.");
      }
      return json{{"type", "game-over"},
                  {"game", game_no_ + 1},
                  {"winner", winner < 0 ? json(nullptr) : json(winner)},
                  {"ending", ending_code(why)},
                  {"handCounts", {hands_[0].size(), hands_[1].size()}},
                  {"text", text}};
    });
    if (series_over) {
      over_ = true;
      if (series_games_ > 1) {
        events.emit(Audience::all(), [&] {
          const Result r = result();
          std::string text = r.winners.size() == 1 ? seat_ref(r.winners[0]) + " wins the series "
                                                   : std::string("The series is tied ");
          text += std::to_string(games_won_[0]) + " to " + std::to_string(games_won_[1]) + ".";
          return json{{"type", "series-over"}, {"result", r.to_json()}, {"text", text}};
        });
      }
      return;
    }
    ++game_no_;
    std::vector<Card> deck = full_deck();
    rng_.shuffle(deck);
    deal(deck, 1 - dealer_);
    events.emit(Audience::all(), [&] {
      return json{{"type", "new-game"},
                  {"game", game_no_ + 1},
                  {"dealer", dealer_},
                  {"text", "Game " + std::to_string(game_no_ + 1) + ": " + seat_ref(dealer_) +
                               " deals, " + seat_ref(current_) + " plays first."}};
    });
    for (Seat s = 0; s < kPlayers; ++s) {
      events.emit(Audience::only(s), [&] {
        json codes = json::array();
        std::string list;
        for (Card c : hands_[s]) {
          codes.push_back(sc::code(c));
          list += (list.empty() ? "" : " ") + words(c);
        }
        return json{{"type", "dealt"}, {"cards", std::move(codes)}, {"text", "you get " + list}};
      });
    }
    begin_turn(events);
  }

  // --- Words and pictures -------------------------------------------------------------------

  static std::string value_words(Card c, int value) {
    return rank_of(c) == 6 ? " (as " + std::to_string(value) + ")" : "";
  }

  // Runs are numbered from 1 in words (as the browser and terminal tables show them) and by
  // index from 0 in actions and views.
  std::string run_words(int index) const {
    const std::string name = "run " + std::to_string(index + 1);
    if (index < 0 || index >= static_cast<int>(runs_.size())) return name;
    const Run& r = runs_[static_cast<std::size_t>(index)];
    if (r.length == 0) {
      return name + ", the empty side " + side_name(r.side) + " of " + words(bases_[r.base].card);
    }
    std::string s = name + " (";
    for (int k = 0; k < r.length; ++k) s += (k ? "-" : "") + std::to_string(r.values[k]);
    return s + ")";
  }

  static std::string needs_words(const Run& r) {
    switch (r.length) {
      case 0:
        return ": a first card is a 2, a 3 or a 6 worth 0 to 3";
      case 1:
        return ": a second card is a 3 or a 5 (or a 6 worth 3 to 5) above " +
               std::to_string(r.values[0]);
      default:
        return ": the next card must be worth " +
               std::to_string(r.values[r.length - 1] + r.values[r.length - 2]);
    }
  }

  std::string target_words(const Action& a) const {
    const auto i = static_cast<std::size_t>(a.arg(2));
    switch (a.arg(1)) {
      case kZoneBase:
        return i < bases_.size() ? "the base " + words(bases_[i].card) : "a base";
      case kZoneRun:
        if (i < runs_.size() && a.arg(3) >= 0 && a.arg(3) < runs_[i].length) {
          return words(runs_[i].cards[static_cast<std::size_t>(a.arg(3))]) + " in " +
                 run_words(a.arg(2));
        }
        return "a run card";
      default:
        return i < side_.size() ? "the side card " + words(side_[i]) : "a side card";
    }
  }

  // The table as columns a person can follow: for every joker, the runs on each side in order
  // (each run but the last is capped by the restart base that starts the next); a floating run
  // (its base went to a refill) starts a column of its own.
  // Each joker base with the chains of runs on its openings A and B (a capped run continues
  // in the run on its restart 6), then every floating run on its own.
  void write_columns(ViewWriter& w) const {
    const auto chain = [&](int run) {
      w.begin_array();
      while (run >= 0) {
        w.value(run);
        const Run& r = runs_[static_cast<std::size_t>(run)];
        if (!r.capped) break;
        int cap = -1;
        for (std::size_t b = 0; b < bases_.size(); ++b) {
          if (bases_[b].restart && bases_[b].caps == run) cap = static_cast<int>(b);
        }
        run = cap < 0 ? -1 : opening(cap, r.side);
      }
      w.end_array();
    };
    w.key("columns").begin_array();
    for (std::size_t b = 0; b < bases_.size(); ++b) {
      if (bases_[b].restart) continue;
      const int base = static_cast<int>(b);
      w.begin_object();
      w.key("A");
      chain(opening(base, 0));
      w.key("B");
      chain(opening(base, 1));
      w.member("base", base);
      w.end_object();
    }
    for (std::size_t i = 0; i < runs_.size(); ++i) {
      if (runs_[i].base != kFloating) continue;
      w.begin_object();
      w.key("A");
      chain(runs_[i].side == 0 ? static_cast<int>(i) : -1);
      w.key("B");
      chain(runs_[i].side == 1 ? static_cast<int>(i) : -1);
      w.key("base").null();
      w.end_object();
    }
    w.end_array();
  }

  int opening(int base, int side) const {
    for (std::size_t i = 0; i < runs_.size(); ++i) {
      if (runs_[i].base == base && runs_[i].side == side) return static_cast<int>(i);
    }
    return -1;
  }

  void write_last_play(ViewWriter& w) const {
    if (last_seat_ < 0) {
      w.null();
      return;
    }
    w.begin_object();
    if (last_kind_ == kJoker && last_other_ != kNoCard) w.member("bonus", sc::code(last_other_));
    if (last_card_ != kNoCard) w.member("card", sc::code(last_card_));
    w.member("move", move_name(last_kind_));
    if (last_kind_ == kPair) w.member("pairedWith", sc::code(last_other_));
    w.member("seat", last_seat_);
    if (last_kind_ == kFour) w.member("taken", sc::code(last_other_));
    w.end_object();
  }

  // --- The state ----------------------------------------------------------------------------

  int series_games_;
  int turn_limit_;
  Rng rng_;
  int game_no_ = 0;
  Seat dealer_ = 1;
  Seat current_ = 0;
  bool over_ = false;
  std::array<std::vector<Card>, kPlayers> hands_;
  std::vector<Card> pile_;  // the top is the back
  // Per seat, bit c: card c in that hand was taken from the table with a 4, so both know it.
  std::array<std::uint64_t, kPlayers> shown_{};
  std::vector<Base> bases_;
  std::vector<Run> runs_;
  std::vector<Card> side_;
  Card pair_chance_ = kNoCard;  // the natural 7 or 8 the opponent placed last turn
  int passes_ = 0;              // consecutive passes
  int turns_ = 0;               // turns taken in this game
  std::vector<std::string> dry_;
  int dry_repeats_ = 0;  // how often the current dry position has occurred (0: not dry)
  Seat last_seat_ = -1;
  std::uint8_t last_kind_ = 0;
  Card last_card_ = kNoCard;
  Card last_other_ = kNoCard;  // the bonus card, the card a 4 took, or the paired card
  std::array<int, kPlayers> games_won_{};
  Seat last_winner_ = -1;
  Ending last_ending_ = Ending::kNone;
};

// --- Wire notation ------------------------------------------------------------------------------

// Reads an integer field in [lo, hi]; false when missing, mistyped or out of range.
bool read_int(const json& a, const char* key, int lo, int hi, int& out) {
  auto it = a.find(key);
  if (it == a.end() || !it->is_number_integer()) return false;
  const auto v = it->get<long long>();
  if (v < lo || v > hi) return false;
  out = static_cast<int>(v);
  return true;
}

class FibGame final : public Game {
 public:
  FibGame() : deck_(full_deck()) {
    info_.id = "fib-fibonacci";
    info_.name = "Fib-Fibonacci";
    info_.summary =
        "Build runs where each card is the sum of the two before, with wild 4s and 6s; empty "
        "your hand first.";
    info_.min_seats = 2;
    info_.max_seats = 2;
    info_.options = {
        OptionSpec::integer("seriesGames", 1, 1, kMaxSeries,
                            "games in the series; the dealer alternates and the seat that wins "
                            "more games wins the series"),
        OptionSpec::integer("turnLimit", 500, kMinTurnLimit, kMaxTurnLimit,
                            "turns after which a game ends as a stalemate (fewer cards wins), so "
                            "that no game can go on for ever")};
    info_.max_actions = kMaxSeries * kMaxTurnLimit;
  }

  const GameInfo& info() const override { return info_; }

  std::vector<Card> deck(const Options&, int) const override { return deck_; }

  std::unique_ptr<State> start(int, const Options& o, std::vector<Card> deck,
                               Rng rng) const override {
    return std::make_unique<FibState>(o.get_int("seriesGames"), o.get_int("turnLimit"),
                                      std::move(deck), rng);
  }

  schema::GameSchema schema() const override { return game_schema(*this); }
  std::string card_code(Card c) const override { return sc::code(c); }

  std::optional<Card> parse_card(std::string_view code) const override {
    auto c = sc::parse(code);
    if (!c || std::find(deck_.begin(), deck_.end(), *c) == deck_.end()) return std::nullopt;
    return c;
  }

 protected:
  json encode_action(const Action& a) const override {
    json j = {{"move", move_name(a.kind)}};
    const Card c = static_cast<Card>(a.arg(0));
    switch (a.kind) {
      case kJoker:
        j["card"] = sc::code(c);
        if (a.argc > 1) {
          const Card bonus = static_cast<Card>(a.arg(1));
          j["bonus"] = sc::code(bonus);
          j["opening"] = side_name(a.arg(2));
          if (rank_of(bonus) == 6) j["value"] = a.arg(3);
        }
        break;
      case kRun:
        j["card"] = sc::code(c);
        j["run"] = a.arg(1);
        if (rank_of(c) == 6) j["value"] = a.arg(2);
        break;
      case kRestart:
        j["card"] = sc::code(c);
        j["run"] = a.arg(1);
        break;
      case kFour:
        j["card"] = sc::code(c);
        switch (a.arg(1)) {
          case kZoneBase:
            j["base"] = a.arg(2);
            break;
          case kZoneRun:
            j["run"] = a.arg(2);
            j["position"] = a.arg(3);
            break;
          default:
            j["sideCard"] = a.arg(2);
        }
        break;
      case kPair:
        j["card"] = sc::code(c);
        break;
      default:
        break;
    }
    return j;
  }

  Expected<Action> decode_action(const std::string& move, const json& a) const override {
    if (move == "draw") return Action::make(kDraw);
    if (move == "pass") return Action::make(kPass);
    const bool known =
        move == "joker" || move == "run" || move == "restart" || move == "four" || move == "pair";
    if (!known) {
      return make_error("bad_action", "unknown move '" + move +
                                          "' (Fib-Fibonacci has draw, pass, joker, run, "
                                          "restart, four and pair)");
    }
    auto card = read_card(a, "card");
    if (!card)
      return make_error("bad_action", move + " needs a \"card\" of this deck, e.g. \"2C\"");
    const int c = *card;
    if (move == "pair") return Action::make(kPair, {c});
    if (move == "joker") {
      const bool any_bonus = a.contains("bonus") || a.contains("opening") || a.contains("value");
      if (!any_bonus) return Action::make(kJoker, {c});
      auto bonus = read_card(a, "bonus");
      if (!bonus) return make_error("bad_action", "\"bonus\" must be a card of this deck");
      auto side = a.find("opening");
      if (side == a.end() || !side->is_string() || (*side != "A" && *side != "B")) {
        return make_error("bad_action", "a bonus card needs \"opening\": \"A\" or \"B\"");
      }
      int value = 0;
      if (auto v = six_value(a, *bonus, value)) return *v;
      return Action::make(kJoker, {c, *bonus, *side == "A" ? 0 : 1, value});
    }
    int run = 0;
    if (move == "run" || move == "restart") {
      if (!read_int(a, "run", 0, kMaxRuns - 1, run)) {
        return make_error("bad_action", move + " needs \"run\", a run number from the table");
      }
      if (move == "restart") {
        if (a.contains("value")) return make_error("bad_action", "a restart 6 has no value");
        return Action::make(kRestart, {c, run});
      }
      int value = 0;
      if (auto v = six_value(a, *card, value)) return *v;
      return Action::make(kRun, {c, run, value});
    }
    // A 4 names exactly one table card: a base, a run card or a side card.
    const int named = static_cast<int>(a.contains("base")) + static_cast<int>(a.contains("run")) +
                      static_cast<int>(a.contains("sideCard"));
    if (named != 1) {
      return make_error("bad_action",
                        "four needs exactly one of \"base\", \"run\" (with \"position\") or "
                        "\"sideCard\"");
    }
    int index = 0;
    int position = 0;
    if (a.contains("base")) {
      if (!read_int(a, "base", 0, kMaxBases - 1, index)) {
        return make_error("bad_action", "\"base\" must be a base number from the table");
      }
      if (a.contains("position")) return make_error("bad_action", "a base has no position");
      return Action::make(kFour, {c, kZoneBase, index, 0});
    }
    if (a.contains("sideCard")) {
      if (!read_int(a, "sideCard", 0, kMaxSide - 1, index)) {
        return make_error("bad_action", "\"sideCard\" must be a side-area card number");
      }
      if (a.contains("position")) return make_error("bad_action", "a side card has no position");
      return Action::make(kFour, {c, kZoneSide, index, 0});
    }
    if (!read_int(a, "run", 0, kMaxRuns - 1, index) ||
        !read_int(a, "position", 0, kMaxRunLength - 1, position)) {
      return make_error("bad_action", "a run card is named by \"run\" and \"position\" numbers");
    }
    return Action::make(kFour, {c, kZoneRun, index, position});
  }

 private:
  std::optional<int> read_card(const json& a, const char* key) const {
    auto it = a.find(key);
    if (it == a.end() || !it->is_string()) return std::nullopt;
    auto c = parse_card(it->get<std::string>());
    if (!c) return std::nullopt;
    return *c;
  }

  // A 6 needs "value"; any other card must not have one. Returns an error or fills `value`.
  static std::optional<Error> six_value(const json& a, int card, int& value) {
    if (rank_of(static_cast<Card>(card)) != 6) {
      if (a.contains("value")) return make_error("bad_action", "only a 6 takes a \"value\"");
      return std::nullopt;
    }
    if (!read_int(a, "value", 0, kMaxValue, value)) {
      return make_error("bad_action", "a 6 needs \"value\", the number it stands for");
    }
    return std::nullopt;
  }

  GameInfo info_;
  std::vector<Card> deck_;
};

}  // namespace

const Game& game() {
  static const FibGame instance;
  return instance;
}

}  // namespace campfire::fib_fibonacci
