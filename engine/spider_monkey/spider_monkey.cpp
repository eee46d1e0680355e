#include "engine/spider_monkey/spider_monkey.hpp"
#include "engine/spider_monkey/spider_monkey_schema.hpp"

#include <algorithm>
#include <array>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/core/standard_cards.hpp"

namespace campfire::spider_monkey {

namespace {

namespace sc = campfire::standard;

constexpr std::uint32_t kPenaltyCards = 2;
constexpr int kMinTurnTimeoutS = 5;

enum class Phase : std::uint8_t { kPeek, kDraw, kResolve, kSlap, kPower, kEndTurn, kOver };

constexpr std::string_view phase_name(Phase p) {
  switch (p) {
    case Phase::kPeek:
      return "peek";
    case Phase::kDraw:
      return "draw";
    case Phase::kResolve:
      return "resolve";
    case Phase::kSlap:
      return "slap-window";
    case Phase::kPower:
      return "power";
    case Phase::kEndTurn:
      return "end-turn";
    case Phase::kOver:
      return "over";
  }
  return "";
}

enum class SlapMode : std::uint8_t { kEnd, kContinueCorrect, kContinueNew, kContinueBoth };
constexpr std::array<std::string_view, 4> kSlapModeNames = {"END", "CONTINUE_CORRECT",
                                                            "CONTINUE_NEW", "CONTINUE_BOTH"};

// Why a round ended.
enum class RoundEnd : std::uint8_t { kNone, kZeroCards, kCall, kTurnLimit };

constexpr std::string_view round_end_name(RoundEnd e) {
  switch (e) {
    case RoundEnd::kNone:
      return "none";
    case RoundEnd::kZeroCards:
      return "zero-cards";
    case RoundEnd::kCall:
      return "call";
    case RoundEnd::kTurnLimit:
      return "turn-limit";
  }
  return "";
}

// One face-down card of a line and its stable slot id.
struct Slot {
  std::int32_t id = 0;
  Card card = kNoCard;
  // Bit s: seat s was shown this card (a peek, a Queen, the card it placed, a card taken from
  // the discard pile) and, since Jack swaps are public, still knows where it is. Only
  // determinization reads it: no view shows it.
  std::uint32_t known = 0;
  bool operator==(const Slot&) const = default;
};

// What everyone saw of the last turn.
struct TurnRecord {
  Seat seat = -1;
  bool from_discard = false;
  std::int32_t replaced = -1;  // the slot that took the new card, -1 when the drawn card went
  Card discarded = kNoCard;
  bool operator==(const TurnRecord&) const = default;
};

// The reveal of a finished round, kept for the view.
struct RoundRecord {
  int round = 0;
  RoundEnd end = RoundEnd::kNone;
  std::vector<std::vector<Slot>> lines;
  std::vector<int> scores;
  std::uint32_t winners = 0;
  bool operator==(const RoundRecord&) const = default;
};

struct Config {
  std::uint32_t peek_ms = 30000;
  std::uint32_t slap_ms = 5000;
  int turn_timeout_s = 0;
  bool cut_for_discard = false;
  bool cumulative = false;
  SlapMode slap_mode = SlapMode::kEnd;
  bool operator==(const Config&) const = default;
};

constexpr std::uint32_t rank_bit(Card c) {
  return 1u << sc::rank(c);
}

std::string rank_words(int rank) {
  switch (rank) {
    case sc::kJack:
      return "J";
    case sc::kQueen:
      return "Q";
    case sc::kKing:
      return "K";
    case sc::kAce:
      return "A";
    default:
      return std::to_string(rank);
  }
}

json ranks_json(std::uint32_t bits) {
  json out = json::array();
  for (int r = 2; r <= sc::kAce; ++r) {
    if (bits & (1u << r)) out.push_back(rank_words(r));
  }
  return out;
}

// Players count slots from 1; actions and views name them by id, from 0. A slot keeps its
// number for the whole round, so a slapped card leaves a gap in the numbering.
std::string slot_number(int id) {
  return std::to_string(id + 1);
}

std::string slot_words(Seat seat, int slot) {
  return seat_ref(seat) + "'s slot " + slot_number(slot);
}

class SpiderMonkeyState final : public StateBase<SpiderMonkeyState> {
 public:
  SpiderMonkeyState(int seats, const Config& config, const std::vector<Card>& deck, Rng rng)
      : seats_(seats),
        config_(config),
        rng_(rng),
        dealer_(seats - 1),
        totals_(static_cast<std::size_t>(seats), 0) {
    deal(deck);
  }

  bool operator==(const SpiderMonkeyState&) const = default;

  int seats() const override { return seats_; }
  bool over() const override { return phase_ == Phase::kOver; }

  SeatSet to_act() const override {
    switch (phase_) {
      case Phase::kPeek:
        return SeatSet::from_bits(SeatSet::all(seats_).bits() & ~peeked_);
      case Phase::kSlap:
        return slappers();
      case Phase::kOver:
        return SeatSet();
      default:
        return SeatSet::of(current_);
    }
  }

  std::optional<Window> window() const override {
    if (phase_ == Phase::kPeek) return Window{window_id_, config_.peek_ms, "peek", to_act()};
    if (phase_ == Phase::kSlap) return Window{window_id_, config_.slap_ms, "slap", to_act()};
    return std::nullopt;
  }

  Result result() const override {
    Result r;
    if (!config_.cumulative && last_round_.round == 0) return r;
    // Lower is better: cumulative totals, or this round's sums with zero-card winners ahead of
    // everyone (a lone K♦ sums to 0 too but does not share that win, SM-12).
    std::vector<int> key(static_cast<std::size_t>(seats_), 0);
    for (Seat s = 0; s < seats_; ++s) {
      if (config_.cumulative) {
        key[s] = totals_[s];
      } else {
        const bool zero = last_round_.end == RoundEnd::kZeroCards && last_round_.lines[s].empty();
        key[s] = zero ? -1 : last_round_.scores[s];
      }
    }
    r.scores = config_.cumulative ? totals_ : last_round_.scores;
    r.places = Result::places_ascending(key);
    const auto [lo, hi] = std::minmax_element(key.begin(), key.end());
    for (Seat s = 0; s < seats_; ++s) {
      if (key[s] == *lo) r.winners.push_back(s);
      if (*hi > *lo && key[s] == *hi) r.losers.push_back(s);
    }
    return r;
  }

  std::string describe(Seat, const Action& a) const override {
    switch (a.kind) {
      case kPeek:
        return "look at your slots " + slot_number(a.arg(0)) + " and " + slot_number(a.arg(1));
      case kDrawStock:
        return "draw the top card of the stockpile";
      case kReplace:
        return "keep the drawn card in slot " + slot_number(a.arg(0)) +
               " and discard the card there";
      case kDiscardDrawn:
        return "discard the drawn card";
      case kTakeDiscard:
        return "take the " + sc::words(discard_.back()) + " from the discard pile into slot " +
               slot_number(a.arg(0));
      case kSlap:
        return "slap the card in your slot " + slot_number(a.arg(0));
      case kSlapDone:
        return "stop slapping";
      case kUseJack:
        if (jack_first_slot_ < 0) return "pick " + slot_words(a.arg(0), a.arg(1)) + " to swap";
        return "swap " + slot_words(jack_first_seat_, jack_first_slot_) + " with " +
               slot_words(a.arg(0), a.arg(1));
      case kUseQueen:
        return "look at " + slot_words(a.arg(0), a.arg(1));
      case kSkipPower:
        return "do not use the power";
      case kEndTurn:
        return a.arg(0) ? "end your turn and call Spider Monkey" : "end your turn";
      default:
        return "?";
    }
  }

  // Members in name order, as the tree's dump() writes them.
  void write_view(Seat viewer, ViewWriter& w) const override {
    const auto seat_or_null = [&](Seat s) {
      if (s < 0) {
        w.null();
      } else {
        w.value(s);
      }
    };
    const auto seats_in = [&](std::uint32_t bits) {
      w.begin_array();
      for (Seat s = 0; s < seats_; ++s) {
        if (bits >> s & 1u) w.value(s);
      }
      w.end_array();
    };
    const auto line_cards = [&](const std::vector<Slot>& line) {
      w.begin_array();
      for (const Slot& slot : line) w.value(sc::code(slot.card));
      w.end_array();
    };
    w.begin_object();
    w.key("caller");
    seat_or_null(caller_);
    w.key("current");
    seat_or_null(phase_ == Phase::kPeek || over() ? -1 : current_);
    w.member("dealer", dealer_);
    w.key("discard").begin_array();
    for (Card c : discard_) w.value(sc::code(c));
    w.end_array();
    if (phase_ == Phase::kResolve && viewer == current_) w.member("drawn", sc::code(drawn_));
    w.member("finalTurnsLeft", final_left_);
    if (phase_ == Phase::kPower && jack_first_slot_ >= 0) {
      w.key("jackFirst").begin_object();
      w.member("seat", jack_first_seat_);
      w.member("slot", jack_first_slot_);
      w.end_object();
    }
    w.key("lastRound");
    if (last_round_.round > 0) {
      w.begin_object();
      w.key("cards").begin_array();
      for (Seat s = 0; s < seats_; ++s) line_cards(last_round_.lines[s]);
      w.end_array();
      w.member("end", round_end_name(last_round_.end));
      w.member("round", last_round_.round);
      w.key("scores").array(last_round_.scores);
      w.key("winners");
      seats_in(last_round_.winners);
      w.end_object();
    } else {
      w.null();
    }
    w.key("lastTurn");
    if (last_turn_.seat >= 0) {
      w.begin_object();
      w.key("discarded");
      if (last_turn_.discarded == kNoCard) {
        w.null();
      } else {
        w.value(sc::code(last_turn_.discarded));
      }
      w.member("from", last_turn_.from_discard ? "discard" : "stock");
      w.key("replaced");
      if (last_turn_.replaced < 0) {
        w.null();
      } else {
        w.value(last_turn_.replaced);
      }
      w.member("seat", last_turn_.seat);
      w.end_object();
    } else {
      w.null();
    }
    w.key("lines").begin_array();
    for (const auto& line : lines_) {
      w.begin_array();
      for (const Slot& slot : line) w.value(slot.id);
      w.end_array();
    }
    w.end_array();
    if (phase_ == Phase::kPeek) {
      w.key("peeked");
      seats_in(peeked_);
    }
    w.member("phase", phase_name(phase_));
    if (phase_ == Phase::kPower) {
      w.member("power", sc::rank(turn_discard_) == sc::kJack ? "jack" : "queen");
    }
    if (over()) {
      result().write(w.key("result"));
      w.key("revealed").begin_array();
      for (const auto& line : lines_) line_cards(line);
      w.end_array();
    }
    w.member("round", round_);
    if (phase_ == Phase::kSlap) {
      w.key("slapDone");
      seats_in(slap_done_);
      w.key("slapRanks").begin_array();
      for (int r = 2; r <= sc::kAce; ++r) {
        if (slap_ranks_ & (1u << r)) w.value(rank_words(r));
      }
      w.end_array();
    }
    w.member("stock", stock_.size());
    if (config_.cumulative) w.key("totals").array(totals_);
    w.member("turns", turns_);
    w.key("window");
    if (auto open = window()) {
      w.begin_object();
      w.member("id", open->id);
      w.member("millis", open->millis);
      w.member("name", open->name);
      w.end_object();
    } else {
      w.null();
    }
    w.end_object();
  }

  Action fallback_action(Seat seat) const override {
    if (seat < 0 || seat >= seats_) return Action{};
    switch (phase_) {
      case Phase::kPeek:
        return Action::make(kPeek, {lines_[seat][0].id, lines_[seat][1].id});
      case Phase::kDraw:
        if (can_draw()) return Action::make(kDrawStock);
        return Action::make(kTakeDiscard, {lines_[seat].front().id});
      case Phase::kResolve:
        return Action::make(kDiscardDrawn);
      case Phase::kSlap:
        return Action::make(kSlapDone);
      case Phase::kPower:
        // Half a Jack swap cannot be skipped: complete it with the first card offered.
        if (jack_first_slot_ >= 0) {
          std::vector<Action> legal;
          legal_actions(seat, legal);
          if (!legal.empty()) return legal.front();
        }
        return Action::make(kSkipPower);
      case Phase::kEndTurn:
        return Action::make(kEndTurn, {0});
      case Phase::kOver:
        break;
    }
    return Action{};
  }

  void cards(std::vector<Card>& out) const override {
    for (const auto& line : lines_) {
      for (const Slot& slot : line) out.push_back(slot.card);
    }
    out.insert(out.end(), stock_.begin(), stock_.end());
    out.insert(out.end(), discard_.begin(), discard_.end());
    if (drawn_ != kNoCard) out.push_back(drawn_);
  }

  void hidden_from(Seat viewer, std::vector<Card*>& out) override {
    // Face-down lines are hidden from everyone, their owners included, until the final reveal.
    if (!over()) {
      for (auto& line : lines_) {
        for (Slot& slot : line) out.push_back(&slot.card);
      }
    }
    for (Card& c : stock_) out.push_back(&c);
    if (drawn_ != kNoCard && !(phase_ == Phase::kResolve && viewer == current_)) {
      out.push_back(&drawn_);
    }
  }

  // What a determinization re-deals: the hidden cards the viewer was never shown (or cannot
  // place any more), so the cards it peeked, looked at with a Queen or placed itself stay put.
  void unknown_to(Seat viewer, std::vector<Card*>& out) override {
    const std::uint32_t me = viewer >= 0 ? 1u << viewer : 0;
    if (!over()) {
      for (auto& line : lines_) {
        for (Slot& slot : line) {
          if (!(slot.known & me)) out.push_back(&slot.card);
        }
      }
    }
    for (Card& c : stock_) out.push_back(&c);
    if (drawn_ != kNoCard && !(phase_ == Phase::kResolve && viewer == current_)) {
      out.push_back(&drawn_);
    }
  }

 protected:
  void do_legal_actions(Seat seat, std::vector<Action>& out) const override {
    const auto& line = lines_[seat];
    switch (phase_) {
      case Phase::kPeek:
        for (std::size_t i = 0; i < line.size(); ++i) {
          for (std::size_t j = i + 1; j < line.size(); ++j) {
            out.push_back(Action::make(kPeek, {line[i].id, line[j].id}));
          }
        }
        return;
      case Phase::kDraw:
        if (can_draw()) out.push_back(Action::make(kDrawStock));
        for (const Slot& slot : line) out.push_back(Action::make(kTakeDiscard, {slot.id}));
        return;
      case Phase::kResolve:
        for (const Slot& slot : line) out.push_back(Action::make(kReplace, {slot.id}));
        out.push_back(Action::make(kDiscardDrawn));
        return;
      case Phase::kSlap:
        for (const Slot& slot : line) {
          if (slappable(seat, slot)) out.push_back(Action::make(kSlap, {slot.id}));
        }
        out.push_back(Action::make(kSlapDone));
        return;
      case Phase::kPower:
        if (sc::rank(turn_discard_) == sc::kJack) {
          for (Seat a = 0; a < seats_; ++a) {
            for (const Slot& slot : lines_[a]) {
              if (a == jack_first_seat_ && slot.id == jack_first_slot_) continue;
              out.push_back(Action::make(kUseJack, {a, slot.id}));
            }
          }
        } else {
          for (Seat a = 0; a < seats_; ++a) {
            for (const Slot& slot : lines_[a]) out.push_back(Action::make(kUseQueen, {a, slot.id}));
          }
        }
        // Once the first card of a swap is picked, the swap is completed.
        if (jack_first_slot_ < 0) out.push_back(Action::make(kSkipPower));
        return;
      case Phase::kEndTurn:
        out.push_back(Action::make(kEndTurn, {0}));
        out.push_back(Action::make(kEndTurn, {1}));
        return;
      case Phase::kOver:
        return;
    }
  }

  // Every card on the table the viewer was shown and can still place, line by line.
  json recall(Seat viewer) const override {
    json known = json::array();
    if (viewer < 0 || over()) return {{"known", std::move(known)}};
    for (Seat s = 0; s < seats_; ++s) {
      for (const Slot& slot : lines_[s]) {
        if (slot.known >> viewer & 1u) {
          known.push_back({{"seat", s}, {"slot", slot.id}, {"card", sc::code(slot.card)}});
        }
      }
    }
    return {{"known", std::move(known)}};
  }

  // The stockpile rebuilds and later rounds of a determinized copy follow the bot's generator.
  void after_redeal(Rng& rng) override { rng_.reseed(rng.next()); }

  Status do_apply(Seat seat, const Action& a, Events& events) override {
    if (a.is_timeout()) {
      if (phase_ == Phase::kPeek) {
        timeout_peek(events);
      } else {
        close_slap_window(events);
      }
      return std::nullopt;
    }
    switch (a.kind) {
      case kPeek:
        return apply_peek(seat, a, events);
      case kDrawStock:
      case kTakeDiscard:
        return apply_draw(seat, a, events);
      case kReplace:
      case kDiscardDrawn:
        return apply_resolve(seat, a, events);
      case kSlap:
      case kSlapDone:
        return apply_slap(seat, a, events);
      case kUseJack:
      case kUseQueen:
      case kSkipPower:
        return apply_power(seat, a, events);
      case kEndTurn:
        return apply_end_turn(seat, a, events);
      default:
        return make_error("bad_action", "Spider Monkey has no such move");
    }
  }

 private:
  // --- Lookups -------------------------------------------------------------------------------

  static json line_cards(const std::vector<Slot>& line) {
    json out = json::array();
    for (const Slot& slot : line) out.push_back(sc::code(slot.card));
    return out;
  }

  SeatSet slappers() const {
    SeatSet s;
    for (Seat p = 0; p < seats_; ++p) {
      if (p != current_ && can_slap_something(p) && !(slap_done_ & (1u << p))) s.insert(p);
    }
    return s;
  }

  bool can_draw() const { return !stock_.empty() || discard_.size() >= 2; }

  // SM-17: only cards held when the window opened may be slapped in it; penalty cards wait.
  bool slappable(Seat seat, const Slot& slot) const { return slot.id < slap_below_[seat]; }
  bool can_slap_something(Seat seat) const {
    const auto& line = lines_[seat];
    return std::any_of(line.begin(), line.end(),
                       [&](const Slot& slot) { return slappable(seat, slot); });
  }

  // The position of `id` in seat's line, or -1.
  int find_slot(Seat seat, std::int32_t id) const {
    if (seat < 0 || seat >= seats_) return -1;
    const auto& line = lines_[seat];
    for (std::size_t i = 0; i < line.size(); ++i) {
      if (line[i].id == id) return static_cast<int>(i);
    }
    return -1;
  }

  static Error wrong_phase(std::string_view what) {
    return make_error("illegal_action", std::string(what));
  }

  static Error no_slot(Seat seat, std::int32_t id) {
    return make_error("no_such_slot",
                      seat_ref(seat) + " has no slot " + std::to_string(id) + " in their line");
  }

  // --- Peek ----------------------------------------------------------------------------------

  Status apply_peek(Seat seat, const Action& a, Events& events) {
    if (phase_ != Phase::kPeek) return wrong_phase("the initial peek is over");
    if (a.argc != 2 || a.arg(0) >= a.arg(1)) {
      return make_error("bad_action", "peek needs two different slots, the lower one first");
    }
    const int i = find_slot(seat, a.arg(0));
    const int j = find_slot(seat, a.arg(1));
    if (i < 0) return no_slot(seat, a.arg(0));
    if (j < 0) return no_slot(seat, a.arg(1));
    peek(seat, i, j, events);
    if (peeked_ == SeatSet::all(seats_).bits()) begin_turn(events);
    return std::nullopt;
  }

  void peek(Seat seat, int i, int j, Events& events) {
    peeked_ |= 1u << seat;
    lines_[seat][static_cast<std::size_t>(i)].known |= 1u << seat;
    lines_[seat][static_cast<std::size_t>(j)].known |= 1u << seat;
    const Slot a = lines_[seat][static_cast<std::size_t>(i)];
    const Slot b = lines_[seat][static_cast<std::size_t>(j)];
    events.emit(Audience::only(seat), [&] {
      return json{{"type", "peek"},
                  {"slots", {a.id, b.id}},
                  {"cards", {sc::code(a.card), sc::code(b.card)}},
                  {"text", "you look at your slot " + slot_number(a.id) + ": " + sc::words(a.card) +
                               ", and slot " + slot_number(b.id) + ": " + sc::words(b.card)}};
    });
    events.emit(Audience::all(), [&] {
      return json{{"type", "peeked"},
                  {"seat", seat},
                  {"slots", {a.id, b.id}},
                  {"text", seat_ref(seat) + " looks at their slots " + slot_number(a.id) + " and " +
                               slot_number(b.id)}};
    });
  }

  void timeout_peek(Events& events) {
    for (Seat s = 0; s < seats_; ++s) {
      if (!(peeked_ & (1u << s))) peek(s, 0, 1, events);
    }
    begin_turn(events);
  }

  // --- The turn ------------------------------------------------------------------------------

  void begin_turn(Events& events) {
    phase_ = Phase::kDraw;
    events.emit(Audience::all(), [&] {
      return json{
          {"type", "turn"},
          {"seat", current_},
          {"final", caller_ >= 0},
          {"text", "it is " + seat_ref(current_) + "'s " + (caller_ >= 0 ? "last turn" : "turn")}};
    });
  }

  Status apply_draw(Seat seat, const Action& a, Events& events) {
    if (phase_ != Phase::kDraw) return wrong_phase("you have already drawn this turn");
    if (a.kind == kDrawStock) {
      if (a.argc != 0) return make_error("bad_action", "draw takes no fields");
      if (!can_draw()) {
        return make_error("stock_empty",
                          "the stockpile is empty and there are no discards to rebuild it: take "
                          "the discard");
      }
      if (stock_.empty()) rebuild_stock(events);
      drawn_ = stock_.back();
      stock_.pop_back();
      phase_ = Phase::kResolve;
      last_turn_ = TurnRecord{seat, false, -1, kNoCard};
      events.emit(Audience::all(), [&] {
        return json{{"type", "draw"},
                    {"seat", seat},
                    {"text", seat_ref(seat) + " draws from the stockpile"}};
      });
      events.emit(Audience::only(seat), [&] {
        return json{{"type", "drawn"},
                    {"card", sc::code(drawn_)},
                    {"text", "you drew " + sc::words(drawn_)}};
      });
      return std::nullopt;
    }
    if (a.argc != 1) return make_error("bad_action", "take-discard needs a slot");
    const int i = find_slot(seat, a.arg(0));
    if (i < 0) return no_slot(seat, a.arg(0));
    Slot& slot = lines_[seat][static_cast<std::size_t>(i)];
    const Card taken = discard_.back();
    discard_.pop_back();
    const Card old = slot.card;
    slot.card = taken;
    slot.known = SeatSet::all(seats_).bits();
    last_turn_ = TurnRecord{seat, true, slot.id, old};
    events.emit(Audience::all(), [&] {
      return json{{"type", "take-discard"},
                  {"seat", seat},
                  {"card", sc::code(taken)},
                  {"slot", slot.id},
                  {"discarded", sc::code(old)},
                  {"text", seat_ref(seat) + " takes the " + sc::words(taken) + " into slot " +
                               slot_number(slot.id) + " and discards " + sc::words(old)}};
    });
    open_slap_window(old, events);
    return std::nullopt;
  }

  void rebuild_stock(Events& events) {
    const Card top = discard_.back();
    discard_.pop_back();
    stock_.swap(discard_);
    rng_.shuffle(stock_);
    discard_.push_back(top);
    events.emit(Audience::all(), [&] {
      return json{{"type", "reshuffle"},
                  {"stock", stock_.size()},
                  {"text", "the discards under the top card are shuffled into a new stockpile"}};
    });
  }

  Status apply_resolve(Seat seat, const Action& a, Events& events) {
    if (phase_ != Phase::kResolve) {
      return wrong_phase("you hold no drawn card: draw from the stockpile first");
    }
    const Card drawn = drawn_;
    if (a.kind == kDiscardDrawn) {
      if (a.argc != 0) return make_error("bad_action", "discard-drawn takes no fields");
      drawn_ = kNoCard;
      last_turn_.discarded = drawn;
      events.emit(Audience::all(), [&] {
        return json{{"type", "discard"},
                    {"seat", seat},
                    {"card", sc::code(drawn)},
                    {"text", seat_ref(seat) + " discards the drawn " + sc::words(drawn)}};
      });
      open_slap_window(drawn, events);
      return std::nullopt;
    }
    if (a.argc != 1) return make_error("bad_action", "replace needs a slot");
    const int i = find_slot(seat, a.arg(0));
    if (i < 0) return no_slot(seat, a.arg(0));
    Slot& slot = lines_[seat][static_cast<std::size_t>(i)];
    const Card old = slot.card;
    slot.card = drawn;
    slot.known = 1u << seat;
    drawn_ = kNoCard;
    last_turn_.replaced = slot.id;
    last_turn_.discarded = old;
    events.emit(Audience::only(seat), [&] {
      return json{
          {"type", "placed"},
          {"slot", slot.id},
          {"card", sc::code(drawn)},
          {"text", "you put the " + sc::words(drawn) + " in your slot " + slot_number(slot.id)}};
    });
    events.emit(Audience::all(), [&] {
      return json{{"type", "replace"},
                  {"seat", seat},
                  {"slot", slot.id},
                  {"discarded", sc::code(old)},
                  {"text", seat_ref(seat) + " keeps the drawn card in slot " +
                               slot_number(slot.id) + " and discards " + sc::words(old)}};
    });
    open_slap_window(old, events);
    return std::nullopt;
  }

  // --- Slapping ------------------------------------------------------------------------------

  void open_slap_window(Card discarded, Events& events) {
    discard_.push_back(discarded);
    turn_discard_ = discarded;
    slap_ranks_ = rank_bit(discarded);
    slap_done_ = 0;
    slap_below_ = next_id_;
    ++turns_;
    ++window_id_;
    phase_ = Phase::kSlap;
    events.emit(Audience::all(), [&] {
      return json{{"type", "slap-window"},
                  {"window", window_id_},
                  {"millis", config_.slap_ms},
                  {"ranks", ranks_json(slap_ranks_)},
                  {"text", "slap window open: cards of rank " + rank_words(sc::rank(discarded)) +
                               " may be slapped"}};
    });
    if (slappers().empty()) close_slap_window(events);
  }

  Status apply_slap(Seat seat, const Action& a, Events& events) {
    if (phase_ != Phase::kSlap) return wrong_phase("no slap window is open");
    if (a.kind == kSlapDone) {
      if (a.argc != 0) return make_error("bad_action", "slap-done takes no fields");
      slap_done_ |= 1u << seat;
      events.emit(Audience::all(), [&] {
        return json{
            {"type", "slap-done"}, {"seat", seat}, {"text", seat_ref(seat) + " is done slapping"}};
      });
      if (slappers().empty()) close_slap_window(events);
      return std::nullopt;
    }
    if (a.argc != 1) return make_error("bad_action", "slap needs a slot");
    const int i = find_slot(seat, a.arg(0));
    if (i < 0) return no_slot(seat, a.arg(0));
    auto& line = lines_[seat];
    const Slot slot = line[static_cast<std::size_t>(i)];
    if (!slappable(seat, slot)) {
      return make_error("illegal_action",
                        "penalty cards cannot be slapped in the window that gave them");
    }
    line.erase(line.begin() + i);
    discard_.push_back(slot.card);
    const bool correct = (slap_ranks_ & rank_bit(slot.card)) != 0;
    if (correct) {
      events.emit(Audience::all(), [&] {
        return json{{"type", "slap"},
                    {"seat", seat},
                    {"slot", slot.id},
                    {"card", sc::code(slot.card)},
                    {"correct", true},
                    {"text", seat_ref(seat) + " slaps the " + sc::words(slot.card) + " from slot " +
                                 slot_number(slot.id) + ": correct!"}};
      });
    } else {
      // SM-7: an empty stockpile is first rebuilt from the discards under the wrong card.
      json added = json::array();
      for (std::uint32_t k = 0; k < kPenaltyCards; ++k) {
        if (stock_.empty() && discard_.size() >= 2) rebuild_stock(events);
        if (stock_.empty()) break;
        line.push_back(Slot{next_id_[seat]++, stock_.back()});
        stock_.pop_back();
        added.push_back(line.back().id);
      }
      events.emit(Audience::all(), [&] {
        return json{{"type", "slap"},
                    {"seat", seat},
                    {"slot", slot.id},
                    {"card", sc::code(slot.card)},
                    {"correct", false},
                    {"penaltySlots", added},
                    {"text", seat_ref(seat) + " slaps the " + sc::words(slot.card) + " from slot " +
                                 slot_number(slot.id) + ": wrong! " + std::to_string(added.size()) +
                                 " penalty card" + (added.size() == 1 ? "" : "s") +
                                 " go face down to " + seat_ref(seat)}};
      });
      switch (config_.slap_mode) {
        case SlapMode::kEnd:
          close_slap_window(events);
          return std::nullopt;
        case SlapMode::kContinueCorrect:
          break;
        case SlapMode::kContinueNew:
          slap_ranks_ = rank_bit(slot.card);
          break;
        case SlapMode::kContinueBoth:
          slap_ranks_ = rank_bit(turn_discard_) | rank_bit(slot.card);
          break;
      }
    }
    if (slappers().empty()) close_slap_window(events);
    return std::nullopt;
  }

  void close_slap_window(Events& events) {
    events.emit(Audience::all(), [&] {
      return json{{"type", "slap-window-closed"},
                  {"window", window_id_},
                  {"text", "the slap window is closed"}};
    });
    bool someone_out = false;
    for (const auto& line : lines_) someone_out |= line.empty();
    if (someone_out) {
      end_round(RoundEnd::kZeroCards, events);
      return;
    }
    const int r = sc::rank(turn_discard_);
    if (r == sc::kJack || r == sc::kQueen) {
      phase_ = Phase::kPower;
      return;
    }
    after_power(events);
  }

  // --- Powers and the call -------------------------------------------------------------------

  Status apply_power(Seat seat, const Action& a, Events& events) {
    if (phase_ != Phase::kPower) return wrong_phase("no Jack or Queen power is available now");
    const bool jack = sc::rank(turn_discard_) == sc::kJack;
    if (a.kind == kSkipPower) {
      if (a.argc != 0) return make_error("bad_action", "skip-power takes no fields");
      if (jack_first_slot_ >= 0) {
        return make_error("illegal_action", "finish the swap: pick the second card");
      }
      events.emit(Audience::all(), [&] {
        return json{{"type", "skip-power"},
                    {"seat", seat},
                    {"text", seat_ref(seat) + " does not use the power"}};
      });
      after_power(events);
      return std::nullopt;
    }
    if (a.kind == kUseJack) {
      if (!jack) return wrong_phase("the discard is a Queen: look at a card, not swap");
      if (a.argc != 2) return make_error("bad_action", "jack needs a seat and a slot");
      const Seat sb = a.arg(0);
      const int j = find_slot(sb, a.arg(1));
      if (j < 0) return no_slot(sb, a.arg(1));
      if (jack_first_slot_ < 0) {
        jack_first_seat_ = sb;
        jack_first_slot_ = a.arg(1);
        events.emit(Audience::all(), [&] {
          return json{
              {"type", "jack-pick"},
              {"seat", seat},
              {"target", sb},
              {"slot", a.arg(1)},
              {"text", seat_ref(seat) + " picks " + slot_words(sb, a.arg(1)) + " for a Jack swap"}};
        });
        return std::nullopt;
      }
      const Seat sa = jack_first_seat_;
      const std::int32_t ia = jack_first_slot_;
      if (sa == sb && ia == a.arg(1)) {
        return make_error("illegal_action", "a swap needs two different slots");
      }
      const int i = find_slot(sa, ia);
      Slot& first = lines_[sa][static_cast<std::size_t>(i)];
      Slot& second = lines_[sb][static_cast<std::size_t>(j)];
      std::swap(first.card, second.card);
      std::swap(first.known, second.known);
      jack_first_slot_ = -1;
      jack_first_seat_ = -1;
      events.emit(Audience::all(), [&] {
        return json{{"type", "jack"},
                    {"seat", seat},
                    {"a", {{"seat", sa}, {"slot", ia}}},
                    {"b", {{"seat", sb}, {"slot", a.arg(1)}}},
                    {"text", seat_ref(seat) + " swaps " + slot_words(sa, ia) + " with " +
                                 slot_words(sb, a.arg(1))}};
      });
      after_power(events);
      return std::nullopt;
    }
    if (jack) return wrong_phase("the discard is a Jack: swap two cards, not look");
    if (a.argc != 2) return make_error("bad_action", "queen needs a seat and a slot");
    const Seat s = a.arg(0);
    const int i = find_slot(s, a.arg(1));
    if (i < 0) return no_slot(s, a.arg(1));
    const Card seen = lines_[s][static_cast<std::size_t>(i)].card;
    lines_[s][static_cast<std::size_t>(i)].known |= 1u << seat;
    events.emit(Audience::only(seat), [&] {
      return json{{"type", "queen-look"},
                  {"target", s},
                  {"slot", a.arg(1)},
                  {"card", sc::code(seen)},
                  {"text", "you look at " + slot_words(s, a.arg(1)) + ": " + sc::words(seen)}};
    });
    events.emit(Audience::all(), [&] {
      return json{{"type", "queen"},
                  {"seat", seat},
                  {"target", s},
                  {"slot", a.arg(1)},
                  {"text", seat_ref(seat) + " looks at " + slot_words(s, a.arg(1))}};
    });
    after_power(events);
    return std::nullopt;
  }

  // The call step, skipped once somebody has called (only one call per round).
  void after_power(Events& events) {
    if (caller_ < 0) {
      phase_ = Phase::kEndTurn;
      return;
    }
    finish_turn(events);
  }

  Status apply_end_turn(Seat seat, const Action& a, Events& events) {
    if (phase_ != Phase::kEndTurn) return wrong_phase("your turn is not at its end yet");
    if (a.argc != 1 || a.arg(0) < 0 || a.arg(0) > 1) {
      return make_error("bad_action", "end-turn needs \"call\": true or false");
    }
    if (a.arg(0) == 1) {
      caller_ = seat;
      final_left_ = seats_ - 1;
      events.emit(Audience::all(), [&] {
        return json{{"type", "call"},
                    {"seat", seat},
                    {"text", seat_ref(seat) + " calls Spider Monkey! Everyone else has one more "
                                              "turn"}};
      });
    }
    finish_turn(events);
    return std::nullopt;
  }

  void finish_turn(Events& events) {
    if (caller_ >= 0 && current_ != caller_) --final_left_;
    if (turns_ >= kMaxTurns) {
      end_round(RoundEnd::kTurnLimit, events);
    } else if (caller_ >= 0 && final_left_ == 0) {
      end_round(RoundEnd::kCall, events);
    } else {
      current_ = (current_ + 1) % seats_;
      begin_turn(events);
    }
  }

  // --- Rounds --------------------------------------------------------------------------------

  void deal(const std::vector<Card>& deck) {
    const auto n = static_cast<std::size_t>(seats_);
    lines_.assign(n, {});
    next_id_.assign(n, kLineStart);
    slap_below_.assign(n, kLineStart);
    for (int r = 0; r < kLineStart; ++r) {
      for (int k = 0; k < seats_; ++k) {
        const Seat s = (dealer_ + 1 + k) % seats_;
        lines_[s].push_back(Slot{r, deck[static_cast<std::size_t>(r * seats_ + k)]});
      }
    }
    stock_.assign(deck.rbegin(), deck.rend() - static_cast<std::ptrdiff_t>(kLineStart * n));
    discard_.clear();
    std::size_t from_top = 0;
    if (config_.cut_for_discard) from_top = static_cast<std::size_t>(rng_.below(stock_.size()));
    const auto at = stock_.end() - 1 - static_cast<std::ptrdiff_t>(from_top);
    discard_.push_back(*at);
    stock_.erase(at);
    drawn_ = kNoCard;
    peeked_ = 0;
    slap_done_ = 0;
    caller_ = -1;
    final_left_ = 0;
    last_turn_ = TurnRecord{};
    current_ = (dealer_ + 1) % seats_;
    ++window_id_;
    phase_ = Phase::kPeek;
  }

  void end_round(RoundEnd why, Events& events) {
    RoundRecord rec;
    rec.round = round_;
    rec.end = why;
    rec.lines = lines_;
    rec.scores.assign(static_cast<std::size_t>(seats_), 0);
    int best = 0;
    for (Seat s = 0; s < seats_; ++s) {
      for (const Slot& slot : lines_[s]) rec.scores[s] += points(slot.card);
      // Zero-card players win together; a lone K♦ scores 0 but does not share that win.
      const int key = why == RoundEnd::kZeroCards && lines_[s].empty() ? -1 : rec.scores[s];
      if (s == 0 || key < best) best = key;
    }
    for (Seat s = 0; s < seats_; ++s) {
      const int key = why == RoundEnd::kZeroCards && lines_[s].empty() ? -1 : rec.scores[s];
      if (key == best) rec.winners |= 1u << s;
    }
    last_round_ = std::move(rec);
    const bool past_limit = config_.cumulative && add_round(totals_, last_round_.scores);
    events.emit(Audience::all(), [&] {
      json lines = json::array();
      std::string names;
      for (Seat s = 0; s < seats_; ++s) {
        lines.push_back({{"seat", s},
                         {"cards", line_cards(last_round_.lines[s])},
                         {"score", last_round_.scores[s]}});
        if (last_round_.winners & (1u << s)) names += (names.empty() ? "" : ", ") + seat_ref(s);
      }
      std::string how = why == RoundEnd::kZeroCards ? "no cards left"
                        : why == RoundEnd::kCall    ? "the lowest sum"
                                                    : "the lowest sum when the turn limit hit";
      json body = {{"type", "reveal"},
                   {"round", round_},
                   {"end", round_end_name(why)},
                   {"lines", std::move(lines)},
                   {"text", "round " + std::to_string(round_) + " is over: " + names +
                                " won it with " + how}};
      if (config_.cumulative) body["totals"] = totals_;
      return body;
    });
    if (config_.cumulative && !past_limit && turns_ < kMaxTurns) {
      next_round(events);
      return;
    }
    phase_ = Phase::kOver;
    events.emit(Audience::all(), [&] {
      const Result r = result();
      std::string names;
      for (std::size_t i = 0; i < r.winners.size(); ++i) {
        names += (i == 0 ? "" : (i + 1 == r.winners.size() ? " and " : ", "));
        names += seat_ref(r.winners[i]);
      }
      return json{{"type", "game-over"},
                  {"result", r.to_json()},
                  {"text", names + (r.winners.size() == 1 ? " wins" : " win") + " the game"}};
    });
  }

  void next_round(Events& events) {
    std::vector<Card> deck;
    deck.reserve(52);
    cards(deck);
    rng_.shuffle(deck);
    ++round_;
    dealer_ = (dealer_ + 1) % seats_;
    deal(deck);
    events.emit(Audience::all(), [&] {
      return json{{"type", "deal"},
                  {"round", round_},
                  {"dealer", dealer_},
                  {"discard", sc::code(discard_.back())},
                  {"text", "round " + std::to_string(round_) + ": " + seat_ref(dealer_) +
                               " deals; everyone looks at two of their cards"}};
    });
  }

  int seats_;
  Config config_;
  Rng rng_;
  int round_ = 1;
  Seat dealer_;
  Seat current_ = 0;
  Phase phase_ = Phase::kPeek;
  std::int32_t window_id_ = 0;
  std::vector<std::vector<Slot>> lines_;
  std::vector<std::int32_t> next_id_;
  std::vector<std::int32_t> slap_below_;  // per seat: the next slot id when the window opened
  std::vector<Card> stock_;    // top card at the back
  std::vector<Card> discard_;  // top card at the back
  Card drawn_ = kNoCard;
  Card turn_discard_ = kNoCard;
  Seat jack_first_seat_ = -1;
  std::int32_t jack_first_slot_ = -1;  // the first slot picked for a Jack swap, -1 before
  std::uint32_t slap_ranks_ = 0;       // bit r: rank r may be slapped correctly
  std::uint32_t slap_done_ = 0;        // bit s: seat s has sent slap-done
  std::uint32_t peeked_ = 0;           // bit s: seat s has peeked
  Seat caller_ = -1;
  int final_left_ = 0;
  int turns_ = 0;  // in the whole game, for kMaxTurns
  TurnRecord last_turn_;
  RoundRecord last_round_;
  std::vector<int> totals_;
};

// --- Decoding ----------------------------------------------------------------------------------

// An integer field in [lo, hi], or nothing.
std::optional<std::int32_t> int_field(const json& a, const char* key, int lo, int hi) {
  auto it = a.find(key);
  if (it == a.end() || !it->is_number_integer()) return std::nullopt;
  const auto v = it->get<long long>();
  if (v < lo || v > hi) return std::nullopt;
  return static_cast<std::int32_t>(v);
}

Error field_error(const std::string& move, const std::string& what) {
  return make_error("bad_action", move + " needs " + what);
}

class SpiderMonkeyGame final : public Game {
 public:
  SpiderMonkeyGame() {
    info_.id = "spider-monkey";
    info_.name = "Spider Monkey";
    info_.summary =
        "Remember your face-down cards, swap them low, and slap matching ranks onto the pile "
        "faster than anyone else.";
    info_.min_seats = 2;
    info_.max_seats = kMaxPlayers;
    info_.options = {
        OptionSpec::integer("peekTimeoutS", 30, 10, 50,
                            "seconds everyone has to look at two of their cards at the start"),
        OptionSpec::integer("slapWindowMs", 5000, 1000, 9000,
                            "milliseconds the slap window stays open after each discard"),
        OptionSpec::boolean("cutForDiscard", false,
                            "cut the stockpile for the first discard instead of turning its top"),
        OptionSpec::boolean("cumulative", false,
                            "play rounds and add up the scores until someone passes 120; lowest "
                            "total wins"),
        OptionSpec::choice("incorrectSlapMode", "END",
                           {"END", "CONTINUE_CORRECT", "CONTINUE_NEW", "CONTINUE_BOTH"},
                           "after a wrong slap: END stops slapping; CONTINUE_CORRECT goes on "
                           "with the discard's rank; CONTINUE_NEW only with the wrong card's "
                           "rank; CONTINUE_BOTH with either"),
        OptionSpec::integer("turnTimeoutS", 0, 0, 120,
                            "seconds per turn before the server plays for a player (draw, "
                            "discard, no power, no call); 0 for no turn timer"),
    };
    // Per turn: draw, place, at most 51 slaps (only cards held when the window opened, SM-17),
    // 7 slap-dones, the timeout, two Jack picks and the call. Per round (at most one per turn):
    // 8 peeks and the timeout.
    info_.max_actions = kMaxTurns * (2 + 51 + 7 + 1 + 3 + 9);
  }

  const GameInfo& info() const override { return info_; }

  Status check_options(const Options& o, int) const override {
    // The other options combine freely; a turn timer must leave time to draw and decide.
    const int turn = o.get_int("turnTimeoutS");
    if (turn > 0 && turn < kMinTurnTimeoutS) {
      return make_error("bad_options", "turnTimeoutS must be 0 (no turn timer) or at least " +
                                           std::to_string(kMinTurnTimeoutS) +
                                           " seconds: a turn needs time to draw and decide");
    }
    return std::nullopt;
  }

  std::vector<Card> deck(const Options&, int) const override { return sc::deck(0); }

  std::unique_ptr<State> start(int seats, const Options& o, std::vector<Card> deck,
                               Rng rng) const override {
    Config c;
    c.peek_ms = static_cast<std::uint32_t>(o.get_int("peekTimeoutS")) * 1000u;
    c.slap_ms = static_cast<std::uint32_t>(o.get_int("slapWindowMs"));
    c.turn_timeout_s = o.get_int("turnTimeoutS");
    c.cut_for_discard = o.get_bool("cutForDiscard");
    c.cumulative = o.get_bool("cumulative");
    const std::string mode = o.get_choice("incorrectSlapMode");
    for (std::size_t i = 0; i < kSlapModeNames.size(); ++i) {
      if (kSlapModeNames[i] == mode) c.slap_mode = static_cast<SlapMode>(i);
    }
    return std::make_unique<SpiderMonkeyState>(seats, c, deck, rng);
  }

  schema::GameSchema schema() const override { return game_schema(*this); }
  std::string card_code(Card c) const override { return sc::code(c); }

  std::optional<Card> parse_card(std::string_view code) const override {
    auto c = sc::parse(code);
    if (!c || sc::is_joker(*c)) return std::nullopt;
    return c;
  }

 protected:
  json encode_action(const Action& a) const override {
    switch (a.kind) {
      case kPeek:
        return {{"move", "peek"}, {"slots", {a.arg(0), a.arg(1)}}};
      case kDrawStock:
        return {{"move", "draw"}};
      case kReplace:
        return {{"move", "replace"}, {"slot", a.arg(0)}};
      case kDiscardDrawn:
        return {{"move", "discard-drawn"}};
      case kTakeDiscard:
        return {{"move", "take-discard"}, {"slot", a.arg(0)}};
      case kSlap:
        return {{"move", "slap"}, {"slot", a.arg(0)}};
      case kSlapDone:
        return {{"move", "slap-done"}};
      case kUseJack:
        return {{"move", "jack"}, {"seat", a.arg(0)}, {"slot", a.arg(1)}};
      case kUseQueen:
        return {{"move", "queen"}, {"seat", a.arg(0)}, {"slot", a.arg(1)}};
      case kSkipPower:
        return {{"move", "skip-power"}};
      case kEndTurn:
        return {{"move", "end-turn"}, {"call", a.arg(0) != 0}};
      default:
        return {{"move", "unknown"}};
    }
  }

  Expected<Action> decode_action(const std::string& move, const json& a) const override {
    if (move == "draw") return Action::make(kDrawStock);
    if (move == "discard-drawn") return Action::make(kDiscardDrawn);
    if (move == "slap-done") return Action::make(kSlapDone);
    if (move == "skip-power") return Action::make(kSkipPower);
    if (move == "replace" || move == "take-discard" || move == "slap") {
      const auto slot = int_field(a, "slot", 0, kMaxSlotId);
      if (!slot) return field_error(move, "a \"slot\" number (one of your slot ids)");
      const std::uint8_t kind = move == "replace" ? kReplace
                                : move == "slap"  ? kSlap
                                                  : kTakeDiscard;
      return Action::make(kind, {*slot});
    }
    if (move == "peek") {
      auto it = a.find("slots");
      if (it == a.end() || !it->is_array() || it->size() != 2) {
        return field_error(move, "\"slots\": two of your slot ids");
      }
      std::array<std::int32_t, 2> s{};
      for (std::size_t i = 0; i < 2; ++i) {
        const json& v = (*it)[i];
        if (!v.is_number_integer() || v.get<long long>() < 0 || v.get<long long>() > kMaxSlotId) {
          return field_error(move, "\"slots\": two of your slot ids");
        }
        s[i] = static_cast<std::int32_t>(v.get<long long>());
      }
      if (s[0] == s[1]) return field_error(move, "two different slots");
      if (s[0] > s[1]) std::swap(s[0], s[1]);
      return Action::make(kPeek, {s[0], s[1]});
    }
    if (move == "jack" || move == "queen") {
      const auto seat = int_field(a, "seat", 0, kMaxPlayers - 1);
      const auto slot = int_field(a, "slot", 0, kMaxSlotId);
      if (!seat || !slot) return field_error(move, "\"seat\" and \"slot\" numbers");
      return Action::make(move == "jack" ? kUseJack : kUseQueen, {*seat, *slot});
    }
    if (move == "end-turn") {
      auto it = a.find("call");
      if (it == a.end() || !it->is_boolean()) {
        return field_error(move, "\"call\": true to call Spider Monkey, else false");
      }
      return Action::make(kEndTurn, {it->get<bool>() ? 1 : 0});
    }
    return make_error("bad_action",
                      "unknown move '" + move +
                          "' (Spider Monkey has peek, draw, replace, discard-drawn, "
                          "take-discard, slap, slap-done, jack, queen, skip-power, end-turn)");
  }

 private:
  GameInfo info_;
};

}  // namespace

int points(Card c) {
  const int r = sc::rank(c);
  if (r == sc::kAce) return 1;
  if (r == sc::kKing) return sc::suit(c) == sc::kDiamonds ? 0 : 13;
  return r;
}

bool add_round(std::vector<int>& totals, const std::vector<int>& round_scores) {
  bool over = false;
  for (std::size_t s = 0; s < totals.size(); ++s) {
    totals[s] += round_scores[s];
    over |= totals[s] > kCumulativeLimit;
  }
  return over;
}

const Game& game() {
  static const SpiderMonkeyGame instance;
  return instance;
}

}  // namespace campfire::spider_monkey
