#include "engine/naked_gibbon/naked_gibbon.hpp"
#include "engine/naked_gibbon/naked_gibbon_schema.hpp"

#include <algorithm>
#include <array>
#include <span>
#include <string_view>
#include <vector>

namespace campfire::naked_gibbon {

namespace {

using standard::is_joker;
using standard::kAce;
using standard::kHearts;
using standard::kKing;
using standard::rank;
using standard::suit;

constexpr int kMaxGibbons = 6;

constexpr bool is_heart(Card c) {
  return !is_joker(c) && suit(c) == kHearts;
}
// The order used to pick the burnmark and the default placement: a joker above an ace.
constexpr int worth(Card c) {
  return is_joker(c) ? 15 : rank(c);
}
// The fire number a face-up card leaves: its number, or 1 for an ace (NG-3).
constexpr int face_up_fire(Card c) {
  return rank(c) == kAce ? 1 : rank(c);
}
constexpr bool face_up(Jump j) {
  return j == Jump::kHandsUp || j == Jump::kChestUp || j == Jump::kRandom;
}

std::string code(Card c) {
  return standard::code(c);
}
std::string words(Card c) {
  return standard::words(c);
}
std::string slot_words(int slot) {
  return "slot " + std::to_string(slot + 1);
}

constexpr std::string_view jump_code(Jump j) {
  switch (j) {
    case Jump::kHandsUp:
      return "hands-up";
    case Jump::kChestUp:
      return "chest-up";
    case Jump::kRandom:
      return "random";
    case Jump::kBackFlip:
      return "back-flip";
    case Jump::kSideFlip:
      return "side-flip";
  }
  return "";
}

constexpr std::string_view jump_words(Jump j) {
  switch (j) {
    case Jump::kHandsUp:
      return "hands up";
    case Jump::kChestUp:
      return "chest up";
    case Jump::kRandom:
      return "panic jump";
    case Jump::kBackFlip:
      return "back flip";
    case Jump::kSideFlip:
      return "side flip";
  }
  return "";
}

std::string fire_words(int before, int after) {
  if (before == after) return "(fire " + std::to_string(after) + ")";
  return "(fire " + std::to_string(before) + "\u2192" + std::to_string(after) + ")";
}

std::string promise_words(Jump j) {
  return j == Jump::kBackFlip ? "'higher heart'" : "'same number'";
}

std::string list_words(const std::vector<Card>& cards) {
  std::string s;
  for (std::size_t i = 0; i < cards.size(); ++i) s += (i == 0 ? "" : ", ") + words(cards[i]);
  return s;
}

std::string count_words(int n, std::string_view one) {
  return std::to_string(n) + " " + std::string(one) + (n == 1 ? "" : "s");
}

// Up to three cards in a fixed order (a hand, or cards waiting for a slot).
struct Three {
  std::array<Card, kSlots> c{kNoCard, kNoCard, kNoCard};
  std::uint8_t n = 0;

  bool operator==(const Three&) const = default;
  void push(Card x) { c[n++] = x; }
  int find(Card x) const {
    for (int i = 0; i < n; ++i) {
      if (c[i] == x) return i;
    }
    return -1;
  }
  bool contains(Card x) const { return find(x) >= 0; }
  void erase(Card x) {
    const int i = find(x);
    for (int k = i; k + 1 < n; ++k) c[k] = c[k + 1];
    c[--n] = kNoCard;
  }
  void clear() { *this = Three(); }
  std::vector<Card> list() const { return {c.begin(), c.begin() + n}; }
};

// One limb slot: a face-up table card and, under it, a face-down burnmark.
struct Limb {
  Card table = kNoCard;
  Card burn = kNoCard;
  bool operator==(const Limb&) const = default;
};

struct Gibbon {
  Three hand;
  std::array<Limb, kSlots> limbs{};
  bool out = false;
  std::uint8_t losses = 0;
  bool operator==(const Gibbon&) const = default;

  int table_count() const {
    int k = 0;
    for (const Limb& l : limbs) k += l.table != kNoCard;
    return k;
  }
  int burnmarks() const {
    int k = 0;
    for (const Limb& l : limbs) k += l.burn != kNoCard;
    return k;
  }
  // The exposed table card that burns (NG-13): lowest, joker as 15, ties to the lowest slot.
  int burning_slot() const {
    int best = -1;
    for (int s = 0; s < kSlots; ++s) {
      const Limb& l = limbs[s];
      if (l.table == kNoCard || l.burn != kNoCard) continue;
      if (best < 0 || worth(l.table) < worth(limbs[best].table)) best = s;
    }
    return best;
  }
};

// One card in the fire and the fire number around it.
struct Play {
  std::int8_t by = 0;
  Jump jump = Jump::kHandsUp;
  Card card = kNoCard;
  std::uint8_t before = 0;
  std::uint8_t after = 0;
  bool shown = false;  // a face-down card turned over by a doubt
  bool operator==(const Play&) const = default;
};

// The last doubt, for everyone to read: the card is public once turned over.
struct Doubt {
  Seat doubter = -1;
  Seat target = -1;
  Jump jump = Jump::kBackFlip;
  Card card = kNoCard;
  std::uint8_t before = 0;
  bool kept = false;
  bool operator==(const Doubt&) const = default;
};

struct Config {
  int jokers = 2;
  bool hat = true;
  bool veterans = false;
  int burn_limit = 3;
  bool survival = false;
  int losses_to_end = 1;
  bool operator==(const Config&) const = default;
};

enum class Phase : std::uint8_t { kMain, kNewFire, kPlace, kNakedPlace, kSwap, kOver };

constexpr std::string_view phase_name(Phase p) {
  switch (p) {
    case Phase::kMain:
      return "main";
    case Phase::kNewFire:
      return "new-fire";
    case Phase::kPlace:
      return "place";
    case Phase::kNakedPlace:
      return "naked-place";
    case Phase::kSwap:
      return "swap";
    case Phase::kOver:
      return "over";
  }
  return "";
}

class NakedGibbonState final : public StateBase<NakedGibbonState> {
 public:
  NakedGibbonState(int seats, const Config& config, std::vector<Card> deck_top_first, Rng rng)
      : seats_(seats), cfg_(config), rng_(rng) {
    for (int i = 0; i < seats_; ++i) order_[i] = pos_[i] = static_cast<std::int8_t>(i);
    fire_.reserve(32);
    deal(std::move(deck_top_first), static_cast<Seat>(order_[seats_ - 1]));
  }

  bool operator==(const NakedGibbonState&) const = default;

  int seats() const override { return seats_; }
  bool over() const override { return phase_ == Phase::kOver; }

  SeatSet to_act() const override {
    switch (phase_) {
      case Phase::kMain:
      case Phase::kNewFire:
      case Phase::kPlace:
        return SeatSet::of(current_);
      case Phase::kNakedPlace:
        return SeatSet::of(placer_);
      case Phase::kSwap:
        return SeatSet::of(round_loser_);
      case Phase::kOver:
        break;
    }
    return SeatSet();
  }

  Result result() const override {
    Result r;
    if (!over()) return r;
    std::vector<int> standing(seats_, 0);
    if (cfg_.survival && cfg_.losses_to_end == 1) {
      // The last gibbon jumping wins; the others rank in reverse order of dropping out.
      for (int i = 0; i < eliminated_n_; ++i) standing[eliminated_[i]] = eliminated_n_ - i;
      standing[round_loser_] = seats_ + 1;
    } else {
      standing[round_loser_] = 1;  // "There is only the loser."
    }
    r.places = Result::places_ascending(standing);
    for (Seat s = 0; s < seats_; ++s) {
      if (standing[s] == 0) r.winners.push_back(s);
    }
    r.losers.push_back(round_loser_);
    // Scores in the game's terms: each gibbon's losses (fewer is better), also for one round.
    for (const Gibbon& g : gibbons()) r.scores.push_back(g.losses);
    return r;
  }

  std::string describe(Seat seat, const Action& a) const override {
    // The words read the table as it is, so only actions on offer are described.
    const std::vector<Action> offered = legal_actions(seat);
    if (std::find(offered.begin(), offered.end(), a) == offered.end()) return "not possible now";
    switch (a.kind) {
      case kSpotMoult:
        return "spot moult: " + words(card_arg(a, 0)) + " onto " + slot_words(a.arg(1)) +
               (burned(seat, a.arg(1)) ? " (burned)" : "") +
               ", discard the other hand cards and draw new ones";
      case kFireBath:
        return "fire bath: discard " + count_words(g_[seat].hand.n, "hand card") +
               " and draw them again face up onto the table";
      case kPlace: {
        std::string s = "place ";
        for (int i = 0; i < a.argc; ++i) {
          s += (i == 0 ? "" : ", ") + words(pending_.c[i]) + " on " + slot_words(a.arg(i)) +
               (burned(placer_, a.arg(i)) ? " (burned)" : "");
        }
        return s;
      }
      case kHandsUp:
        return "hands up: " + words(card_arg(a, 0)) + " " +
               fire_words(fire_number_, face_up_fire(card_arg(a, 0)));
      case kChestUp: {
        const Card c = g_[seat].limbs[a.arg(0)].table;
        return "chest up: " + words(c) + " from " + slot_words(a.arg(0)) + " " +
               fire_words(fire_number_, chest_up_fire(c));
      }
      case kRandom:
        return "panic jump: the top card of the deck, face up (needs " +
               std::to_string(fire_number_) + " or higher)";
      case kBackFlip:
      case kSideFlip: {
        const Jump j = a.kind == kBackFlip ? Jump::kBackFlip : Jump::kSideFlip;
        return std::string(jump_words(j)) + ": " + promise_words(j) + " " +
               fire_words(fire_number_, promised_fire(j, fire_number_)) + " with " +
               words(card_arg(a, 0));
      }
      case kDoubt: {
        const Play& p = fire_[static_cast<std::size_t>(latest_of(a.arg(0)))];
        return "doubt " + seat_ref(a.arg(0)) + "'s " + std::string(jump_words(p.jump)) + ": " +
               promise_words(p.jump) + " " + fire_words(p.before, p.after);
      }
      case kSwap:
        return "swap places with " + seat_ref(a.arg(0)) + " and deal the next round";
      default:
        return "?";
    }
  }

  // Per-seat facts are arrays indexed by seat. Members in name order, as the tree's dump()
  // writes them.
  void write_view(Seat viewer, ViewWriter& w) const override {
    const auto per_gibbon = [&](std::string_view name, auto&& fact) {
      w.key(name).begin_array();
      for (const Gibbon& g : gibbons()) fact(g);
      w.end_array();
    };
    w.begin_object();
    w.member("burnLimit", cfg_.burn_limit);
    per_gibbon("burned", [&](const Gibbon& g) {
      w.begin_array();
      for (const Limb& l : g.limbs) w.value(l.burn != kNoCard);
      w.end_array();
    });
    per_gibbon("burnmarks", [&](const Gibbon& g) { w.value(g.burnmarks()); });
    w.key("current");
    if (over()) {
      w.null();
    } else {
      w.value(current_);
    }
    w.member("dealer", dealer_);
    w.member("deck", deck_.size());
    w.member("discard", discard_.size());
    w.key("doubtable").begin_array();
    for (std::size_t i = 0; i < fire_.size(); ++i) {
      if (doubtable_play(i)) w.value(fire_[i].by);
    }
    w.end_array();
    if (eliminated_n_ > 0) {
      w.key("eliminated").begin_array();
      for (int i = 0; i < eliminated_n_; ++i) w.value(eliminated_[i]);
      w.end_array();
    }
    w.key("fire").begin_array();
    for (const Play& p : fire_) {
      w.begin_object();
      w.member("after", p.after);
      w.member("before", p.before);
      w.member("by", p.by);
      if (face_up(p.jump) || viewer == p.by) w.member("card", code(p.card));
      w.member("jump", jump_code(p.jump));
      w.end_object();
    }
    w.end_array();
    w.member("fireNumber", fire_number_);
    if (viewer >= 0) {
      w.key("hand").begin_array();
      for (int i = 0; i < g_[viewer].hand.n; ++i) w.value(code(g_[viewer].hand.c[i]));
      w.end_array();
    }
    per_gibbon("handCounts", [&](const Gibbon& g) { w.value(g.hand.n); });
    w.key("hat");
    if (hat_ >= 0) {
      w.value(hat_);
    } else {
      w.null();
    }
    if (doubt_.doubter >= 0) {
      w.key("lastDoubt").begin_object();
      w.member("before", doubt_.before);
      w.member("card", code(doubt_.card));
      w.member("doubter", doubt_.doubter);
      w.member("jump", jump_code(doubt_.jump));
      w.member("kept", doubt_.kept);
      w.member("target", doubt_.target);
      w.end_object();
    }
    per_gibbon("losses", [&](const Gibbon& g) { w.value(g.losses); });
    per_gibbon("out", [&](const Gibbon& g) { w.value(g.out); });
    w.member("phase", phase_name(phase_));
    if (phase_ == Phase::kPlace || phase_ == Phase::kNakedPlace) {
      w.key("placing").begin_object();
      w.key("cards").begin_array();
      for (int i = 0; i < pending_.n; ++i) w.value(code(pending_.c[i]));
      w.end_array();
      w.member("seat", placer_);
      w.member("why", phase_ == Phase::kPlace ? "fire-bath" : "naked");
      w.end_object();
    }
    if (over()) result().write(w.key("result"));
    w.member("round", round_);
    if (round_loser_ >= 0) w.member("roundLoser", round_loser_);
    w.key("seatOrder").begin_array();
    for (int i = 0; i < seats_; ++i) w.value(order_[i]);
    w.end_array();
    per_gibbon("table", [&](const Gibbon& g) {
      w.begin_array();
      for (const Limb& l : g.limbs) {
        if (l.table == kNoCard) {
          w.null();
        } else {
          w.value(code(l.table));
        }
      }
      w.end_array();
    });
    w.member("turnsThisRound", turns_);
    if (cfg_.veterans && cfg_.burn_limit == 2) {
      w.member("warning", "Veterans with Never My Tail: the first burnmark burns the tail");
    }
    w.end_object();
  }

  // The turn timer plays a panic jump (NG-26); placements go the NG-14 default.
  Action fallback_action(Seat seat) const override {
    switch (phase_) {
      case Phase::kMain:
      case Phase::kNewFire:
        if (can_draw()) return Action::make(kRandom);
        break;
      case Phase::kPlace:
      case Phase::kNakedPlace:
        return default_placement();
      default:
        break;
    }
    return State::fallback_action(seat);
  }

  void cards(std::vector<Card>& out) const override {
    for (const Gibbon& g : gibbons()) {
      for (Card c : g.hand.list()) out.push_back(c);
      for (const Limb& l : g.limbs) {
        if (l.table != kNoCard) out.push_back(l.table);
        if (l.burn != kNoCard) out.push_back(l.burn);
      }
    }
    for (Card c : pending_.list()) out.push_back(c);
    for (const Play& p : fire_) out.push_back(p.card);
    out.insert(out.end(), deck_.begin(), deck_.end());
    out.insert(out.end(), discard_.begin(), discard_.end());
  }

  void hidden_from(Seat viewer, std::vector<Card*>& out) override {
    for (Seat s = 0; s < seats_; ++s) {
      Gibbon& g = g_[s];
      if (s != viewer) {
        for (int i = 0; i < g.hand.n; ++i) out.push_back(&g.hand.c[i]);
      }
      for (Limb& l : g.limbs) {
        if (l.burn != kNoCard) out.push_back(&l.burn);
      }
    }
    for (Play& p : fire_) {
      if (!face_up(p.jump) && p.by != viewer) out.push_back(&p.card);
    }
    for (Card& c : deck_) out.push_back(&c);
    for (Card& c : discard_) out.push_back(&c);
  }

  // The burnmarks and discards the viewer saw go where they lie.
  json recall(Seat viewer) const override {
    json burns = json::array();
    json discards = json::array();
    if (viewer >= 0) {
      const std::uint32_t me = 1u << viewer;
      for (Seat s = 0; s < seats_; ++s) {
        for (int slot = 0; slot < kSlots; ++slot) {
          const Card b = g_[s].limbs[slot].burn;
          if (b != kNoCard && (placed_known_[b] & me)) {
            burns.push_back({{"seat", s}, {"slot", slot}, {"card", code(b)}});
          }
        }
      }
      for (Card c : discard_) {
        if (placed_known_[c] & me) discards.push_back(code(c));
      }
    }
    return {{"burnmarks", std::move(burns)}, {"discards", std::move(discards)}};
  }

  // What a determinization re-deals: hidden cards the viewer never saw go where they lie now.
  // Everyone saw a burnmark burn (a Veteran's excepted) and most cards reach the discards face
  // up; a gibbon also knows the hand cards it discarded itself.
  void unknown_to(Seat viewer, std::vector<Card*>& out) override {
    const std::uint32_t me = viewer >= 0 ? 1u << viewer : 0;
    for (Seat s = 0; s < seats_; ++s) {
      Gibbon& g = g_[s];
      if (s != viewer) {
        for (int i = 0; i < g.hand.n; ++i) out.push_back(&g.hand.c[i]);
      }
      for (Limb& l : g.limbs) {
        if (l.burn != kNoCard && !(placed_known_[l.burn] & me)) out.push_back(&l.burn);
      }
    }
    for (Play& p : fire_) {
      if (!face_up(p.jump) && !p.shown && p.by != viewer) out.push_back(&p.card);
    }
    for (Card& c : deck_) out.push_back(&c);
    for (Card& c : discard_) {
      if (!(placed_known_[c] & me)) out.push_back(&c);
    }
  }

 protected:
  void do_legal_actions(Seat seat, std::vector<Action>& out) const override {
    switch (phase_) {
      case Phase::kMain:
      case Phase::kNewFire:
        turn_actions(seat, out);
        break;
      case Phase::kPlace:
      case Phase::kNakedPlace:
        placements(out);
        break;
      case Phase::kSwap:
        for (Seat s = 0; s < seats_; ++s) {
          if (s != seat) out.push_back(Action::make(kSwap, {s}));
        }
        break;
      case Phase::kOver:
        break;
    }
  }

  // Refills and later rounds of a determinized copy follow the bot's generator.
  void after_redeal(Rng& rng) override { rng_.reseed(rng.next()); }

  Status do_apply(Seat seat, const Action& a, Events& events) override {
    if (seat == kSystem) return make_error("illegal_action", "Naked Gibbon has no timed windows");
    std::vector<Action> legal;
    do_legal_actions(seat, legal);
    if (std::find(legal.begin(), legal.end(), a) == legal.end()) return refusal(seat, a);
    switch (a.kind) {
      case kSpotMoult:
        spot_moult(seat, card_arg(a, 0), a.arg(1), events);
        break;
      case kFireBath:
        fire_bath(seat, events);
        break;
      case kPlace:
        place(a, events);
        break;
      case kHandsUp:
      case kChestUp:
      case kRandom:
      case kBackFlip:
      case kSideFlip:
        jump(seat, a, events);
        break;
      case kDoubt:
        doubt(seat, a.arg(0), events);
        break;
      case kSwap:
        swap_seats(seat, a.arg(0), events);
        break;
      default:
        break;
    }
    return std::nullopt;
  }

 private:
  std::span<const Gibbon> gibbons() const {
    return std::span<const Gibbon>(g_.data(), static_cast<std::size_t>(seats_));
  }
  static Card card_arg(const Action& a, int i) { return static_cast<Card>(a.arg(i)); }
  std::uint32_t everyone() const { return SeatSet::all(seats_).bits(); }
  bool burned(Seat s, int slot) const {
    return s >= 0 && slot >= 0 && slot < kSlots && g_[s].limbs[slot].burn != kNoCard;
  }
  int chest_up_fire(Card c) const {
    if (!is_joker(c)) return face_up_fire(c);
    return fire_number_ >= kKing ? 1 : fire_number_ + 1;
  }

  // --- Reading the table -----------------------------------------------------------------

  Seat next_active(Seat s) const {
    for (int k = 1; k <= seats_; ++k) {
      const Seat t = order_[(pos_[s] + k) % seats_];
      if (!g_[t].out) return t;
    }
    return s;
  }
  int active_count() const {
    int k = 0;
    for (const Gibbon& g : gibbons()) k += !g.out;
    return k;
  }
  // Index in the fire of the seat's latest card, or -1.
  int latest_of(Seat s) const {
    for (int i = static_cast<int>(fire_.size()) - 1; i >= 0; --i) {
      if (fire_[static_cast<std::size_t>(i)].by == s) return i;
    }
    return -1;
  }
  bool doubtable_play(std::size_t i) const {
    if (phase_ != Phase::kMain) return false;
    const Play& p = fire_[i];
    return p.by != current_ && !face_up(p.jump) && !g_[p.by].out &&
           latest_of(p.by) == static_cast<int>(i);
  }
  // Whether a card can be produced for a draw: the deck, the discards, or the fire below each
  // gibbon's latest card (NG-9). All of it is public.
  bool can_draw() const {
    if (!deck_.empty() || !discard_.empty()) return true;
    std::uint32_t seen = 0;
    for (auto it = fire_.rbegin(); it != fire_.rend(); ++it) {
      const std::uint32_t bit = 1u << it->by;
      if (seen & bit) return true;
      seen |= bit;
    }
    return false;
  }

  // --- Legal actions ---------------------------------------------------------------------

  void turn_actions(Seat p, std::vector<Action>& out) const {
    const Gibbon& g = g_[p];
    const bool main = phase_ == Phase::kMain;
    if (main) {
      for (Card c : g.hand.list()) {
        if (is_joker(c) || rank(c) > fire_number_) continue;
        for (int s = 0; s < kSlots; ++s) {
          if (g.limbs[s].table == kNoCard) out.push_back(Action::make(kSpotMoult, {c, s}));
        }
      }
      if (g.hand.n > 0) out.push_back(Action::make(kFireBath));
    }
    for (Card c : g.hand.list()) {
      if (!is_joker(c) && !is_heart(c) && rank(c) > fire_number_) {
        out.push_back(Action::make(kHandsUp, {c}));
      }
    }
    for (int s = 0; s < kSlots; ++s) {
      const Card c = g.limbs[s].table;
      if (c != kNoCard && (is_joker(c) || rank(c) > fire_number_)) {
        out.push_back(Action::make(kChestUp, {s}));
      }
    }
    if (can_draw()) out.push_back(Action::make(kRandom));
    if (!(cfg_.hat && hat_ == p)) {
      for (Card c : g.hand.list()) out.push_back(Action::make(kBackFlip, {c}));
    }
    if (fire_number_ >= 1) {
      for (Card c : g.hand.list()) out.push_back(Action::make(kSideFlip, {c}));
    }
    if (main) {
      for (std::size_t i = 0; i < fire_.size(); ++i) {
        if (doubtable_play(i)) out.push_back(Action::make(kDoubt, {fire_[i].by}));
      }
    }
  }

  // Free slots of the placer, in slot order.
  std::vector<int> free_slots() const {
    std::vector<int> f;
    for (int s = 0; s < kSlots; ++s) {
      if (g_[placer_].limbs[s].table == kNoCard) f.push_back(s);
    }
    return f;
  }

  // Every way to put the waiting cards on distinct free slots, as kPlace actions.
  template <class Visit>
  void each_placement(Visit&& visit) const {
    const std::vector<int> free = free_slots();
    std::array<int, kSlots> pick{};
    std::array<bool, kSlots> used{};
    const int k = pending_.n;
    auto rec = [&](auto&& self, int i) -> void {
      if (i == k) {
        Action a = Action::make(kPlace);
        for (int j = 0; j < k; ++j) a.push(pick[j]);
        visit(a);
        return;
      }
      for (std::size_t f = 0; f < free.size(); ++f) {
        if (used[f]) continue;
        used[f] = true;
        pick[i] = free[f];
        self(self, i + 1);
        used[f] = false;
      }
    };
    rec(rec, 0);
  }

  void placements(std::vector<Action>& out) const {
    each_placement([&](const Action& a) { out.push_back(a); });
  }

  // What a placement changes in the game: which card values land on safe spots.
  std::uint32_t placement_signature(const Action& a) const {
    std::array<int, kSlots> keys{};
    for (int i = 0; i < a.argc; ++i) {
      keys[i] = worth(pending_.c[i]) * 2 + (burned(placer_, a.arg(i)) ? 1 : 0);
    }
    std::sort(keys.begin(), keys.begin() + a.argc);
    std::uint32_t sig = 0;
    for (int i = 0; i < a.argc; ++i) sig = sig * 32 + static_cast<std::uint32_t>(keys[i]);
    return sig;
  }

  // NG-14: the owner chooses only when the choice changes something.
  bool placement_matters() const {
    bool first = true;
    bool differs = false;
    std::uint32_t sig0 = 0;
    each_placement([&](const Action& a) {
      const std::uint32_t sig = placement_signature(a);
      if (first) {
        sig0 = sig;
        first = false;
      } else if (sig != sig0) {
        differs = true;
      }
    });
    return differs;
  }

  // NG-14 default: the lowest cards go onto burned (safe) slots.
  Action default_placement() const {
    std::vector<int> free = free_slots();
    std::stable_sort(free.begin(), free.end(),
                     [&](int x, int y) { return burned(placer_, x) && !burned(placer_, y); });
    std::array<int, kSlots> by_worth{0, 1, 2};
    std::stable_sort(by_worth.begin(), by_worth.begin() + pending_.n,
                     [&](int x, int y) { return worth(pending_.c[x]) < worth(pending_.c[y]); });
    std::array<int, kSlots> slot_of{};
    for (int i = 0; i < pending_.n; ++i) slot_of[by_worth[i]] = free[i];
    Action a = Action::make(kPlace);
    for (int i = 0; i < pending_.n; ++i) a.push(slot_of[i]);
    return a;
  }

  // --- Refusals ----------------------------------------------------------------------------

  Error refusal(Seat seat, const Action& a) const {
    const Gibbon& g = g_[seat];
    auto illegal = [](std::string why) { return make_error("illegal_action", std::move(why)); };
    const bool turn = phase_ == Phase::kMain || phase_ == Phase::kNewFire;
    switch (a.kind) {
      case kSwap:
        if (phase_ != Phase::kSwap) return illegal("seats are swapped only between rounds");
        if (a.argc != 1) return make_error("bad_action", "swap needs a seat");
        return illegal("choose another player's seat to swap with");
      case kPlace:
        if (phase_ != Phase::kPlace && phase_ != Phase::kNakedPlace) {
          return illegal("there are no cards waiting to be placed");
        }
        return illegal("give each of the " + count_words(pending_.n, "waiting card") +
                       " its own free slot, in the order listed");
      default:
        break;
    }
    if (phase_ == Phase::kSwap) return illegal("choose a player to swap seats with first");
    if (phase_ == Phase::kPlace || phase_ == Phase::kNakedPlace) {
      return illegal("place the waiting table cards first");
    }
    if (!turn) return illegal("that move is not possible now");
    const bool main = phase_ == Phase::kMain;
    const bool hand_card =
        a.kind == kSpotMoult || a.kind == kHandsUp || a.kind == kBackFlip || a.kind == kSideFlip;
    if (hand_card) {
      if (a.argc < 1) return make_error("bad_action", "that move needs a hand card");
      if (!g.hand.contains(card_arg(a, 0))) {
        return make_error("not_in_hand", "you have no such card in hand");
      }
    }
    const Card c = hand_card ? card_arg(a, 0) : kNoCard;
    switch (a.kind) {
      case kSpotMoult:
        if (!main) return illegal("no moulting when starting the fire after a won doubt");
        if (is_joker(c)) return illegal("a joker can never be spot-moulted");
        if (rank(c) > fire_number_) {
          return illegal(words(c) + " is higher than the fire (" + std::to_string(fire_number_) +
                         "): only the same or lower can be spot-moulted");
        }
        return illegal("that slot already holds a table card");
      case kFireBath:
        if (!main) return illegal("no moulting when starting the fire after a won doubt");
        return illegal("a fire bath needs at least one hand card");
      case kHandsUp:
        if (is_joker(c)) return illegal("a joker in hand can only be played face down");
        if (is_heart(c)) return illegal("a heart in hand can only be played face down");
        return illegal(words(c) + " is not higher than the fire (" + std::to_string(fire_number_) +
                       ")");
      case kChestUp:
        if (a.argc != 1 || a.arg(0) < 0 || a.arg(0) >= kSlots) {
          return make_error("bad_action", "chest up needs a slot 0-2");
        }
        if (g.limbs[a.arg(0)].table == kNoCard) return illegal("that slot has no table card");
        return illegal("a table card must be higher than the fire (" +
                       std::to_string(fire_number_) + ")");
      case kRandom:
        return illegal("there is no card left to jump with");
      case kBackFlip:
        return make_error("wearing_hat",
                          "the Heartless Monkey Hat forbids back flips (higher hearts)");
      case kSideFlip:
        return illegal("a side flip needs a fire to match: the fire is empty");
      case kDoubt:
        if (!main) return illegal("the new fire is empty: there is nothing to doubt");
        return illegal(
            "only another player's latest card in this fire can be doubted, and "
            "only if it was played face down");
      default:
        return make_error("bad_action", "Naked Gibbon has no such move");
    }
  }

  // --- Drawing -------------------------------------------------------------------------------

  // NG-9: an empty deck is refilled from the discards, or else from the fire below each
  // gibbon's latest card (which stays, still doubtable, and the fire number with it).
  void refill(Events& events) {
    if (!discard_.empty()) {
      for (Card c : discard_) placed_known_[c] = 0;
      deck_.swap(discard_);
      rng_.shuffle(deck_);
      events.emit(Audience::all(), [&] {
        return json{{"type", "reshuffle"},
                    {"from", "discard"},
                    {"cards", deck_.size()},
                    {"text", "The deck ran out: the discards are shuffled into a new deck (" +
                                 count_words(static_cast<int>(deck_.size()), "card") + ")."}};
      });
      return;
    }
    std::vector<Play> kept;
    std::uint32_t seen = 0;
    for (auto it = fire_.rbegin(); it != fire_.rend(); ++it) {
      const std::uint32_t bit = 1u << it->by;
      if (seen & bit) {
        deck_.push_back(it->card);
      } else {
        seen |= bit;
        kept.push_back(*it);
      }
    }
    if (deck_.empty()) return;
    std::reverse(kept.begin(), kept.end());
    fire_ = std::move(kept);
    rng_.shuffle(deck_);
    events.emit(Audience::all(), [&] {
      return json{{"type", "reshuffle"},
                  {"from", "fire"},
                  {"cards", deck_.size()},
                  {"text",
                   "The deck and discards are empty: the fire below each player's latest "
                   "card is shuffled into a new deck (" +
                       count_words(static_cast<int>(deck_.size()), "card") + ")."}};
    });
  }

  Card draw_card(Events& events) {
    if (deck_.empty()) refill(events);
    if (deck_.empty()) return kNoCard;
    const Card c = deck_.back();
    deck_.pop_back();
    return c;
  }

  // Every draw tops up to 3 held cards (NG-9); into the hand, or waiting for a slot after a
  // fire bath. Returns what was drawn.
  std::vector<Card> top_up(Seat s, bool to_table, Events& events) {
    Gibbon& g = g_[s];
    std::vector<Card> drawn;
    while (g.hand.n + g.table_count() + (to_table ? pending_.n : 0) < kSlots) {
      const Card c = draw_card(events);
      if (c == kNoCard) break;
      drawn.push_back(c);
      if (to_table) {
        pending_.push(c);
      } else {
        g.hand.push(c);
      }
    }
    if (!to_table && !drawn.empty()) {
      events.emit(Audience::only(s), [&] {
        json cards = json::array();
        for (Card c : drawn) cards.push_back(code(c));
        return json{{"type", "drew"},
                    {"cards", std::move(cards)},
                    {"text", "you drew " + list_words(drawn)}};
      });
    }
    return drawn;
  }

  void discard_hand(Gibbon& g) {
    const auto owner = static_cast<Seat>(&g - g_.data());
    for (Card c : g.hand.list()) {
      discard_.push_back(c);
      placed_known_[c] = 1u << owner;
    }
    g.hand.clear();
  }

  // --- Moulting --------------------------------------------------------------------------

  void spot_moult(Seat p, Card c, int slot, Events& events) {
    Gibbon& g = g_[p];
    g.hand.erase(c);
    g.limbs[slot].table = c;
    const int dropped = g.hand.n;
    discard_hand(g);
    const int drawn = static_cast<int>(top_up(p, false, events).size());
    events.emit(Audience::all(), [&] {
      return json{{"type", "spot-moult"},
                  {"seat", p},
                  {"card", code(c)},
                  {"slot", slot},
                  {"discarded", dropped},
                  {"drawn", drawn},
                  {"text", seat_ref(p) + " spot moults: " + words(c) + " onto " + slot_words(slot) +
                               (burned(p, slot) ? " (burned)" : "") + ", discards " +
                               count_words(dropped, "hand card") + " and draws " +
                               std::to_string(drawn) + "."}};
    });
  }

  void fire_bath(Seat p, Events& events) {
    Gibbon& g = g_[p];
    const int dropped = g.hand.n;
    discard_hand(g);
    const std::vector<Card> drawn = top_up(p, true, events);
    events.emit(Audience::all(), [&] {
      json cards = json::array();
      for (Card c : drawn) cards.push_back(code(c));
      return json{
          {"type", "fire-bath"},
          {"seat", p},
          {"discarded", dropped},
          {"cards", std::move(cards)},
          {"text", seat_ref(p) + " takes a fire bath: discards " +
                       count_words(dropped, "hand card") + " and draws " +
                       (drawn.empty() ? std::string("nothing") : list_words(drawn)) + " face up."}};
    });
    placer_ = p;
    if (placement_matters()) {
      phase_ = Phase::kPlace;
    } else {
      put_on_table(default_placement(), events);
    }
  }

  void put_on_table(const Action& a, Events& events) {
    if (a.argc > 0) {
      events.emit(Audience::all(), [&] {
        std::string text;
        for (int i = 0; i < a.argc; ++i) {
          text += (i == 0 ? "" : ", ") + words(pending_.c[i]) + " on " + slot_words(a.arg(i)) +
                  (burned(placer_, a.arg(i)) ? " (burned)" : "");
        }
        return json{{"type", "placed"},
                    {"seat", placer_},
                    {"text", seat_ref(placer_) + " places " + text + "."}};
      });
    }
    Gibbon& g = g_[placer_];
    for (int i = 0; i < a.argc; ++i) g.limbs[a.arg(i)].table = pending_.c[i];
    pending_.clear();
  }

  void place(const Action& a, Events& events) {
    const Phase was = phase_;
    put_on_table(a, events);
    if (was == Phase::kPlace) {
      phase_ = Phase::kMain;
    } else {
      begin_turn(current_, after_new_fire_, events);
    }
  }

  // --- Jumps and doubts ------------------------------------------------------------------

  void jump(Seat p, const Action& a, Events& events) {
    Gibbon& g = g_[p];
    Play play;
    play.by = static_cast<std::int8_t>(p);
    play.before = static_cast<std::uint8_t>(fire_number_);
    bool crash = false;
    switch (a.kind) {
      case kHandsUp:
        play.jump = Jump::kHandsUp;
        play.card = card_arg(a, 0);
        g.hand.erase(play.card);
        play.after = static_cast<std::uint8_t>(face_up_fire(play.card));
        break;
      case kChestUp:
        play.jump = Jump::kChestUp;
        play.card = g.limbs[a.arg(0)].table;
        g.limbs[a.arg(0)].table = kNoCard;
        play.after = static_cast<std::uint8_t>(chest_up_fire(play.card));
        break;
      case kRandom:
        play.jump = Jump::kRandom;
        play.card = draw_card(events);
        if (is_joker(play.card)) {
          play.after = static_cast<std::uint8_t>(fire_number_ == 0 ? 1 : fire_number_);
        } else if (rank(play.card) >= fire_number_) {
          play.after = static_cast<std::uint8_t>(face_up_fire(play.card));
        } else {
          crash = true;
          play.after = play.before;
        }
        break;
      default:
        play.jump = a.kind == kBackFlip ? Jump::kBackFlip : Jump::kSideFlip;
        play.card = card_arg(a, 0);
        g.hand.erase(play.card);
        play.after = static_cast<std::uint8_t>(promised_fire(play.jump, fire_number_));
        break;
    }
    fire_.push_back(play);
    fire_number_ = play.after;
    ++turns_;
    events.emit(Audience::all(), [&] {
      json e = {{"type", "jump"},
                {"seat", p},
                {"jump", jump_code(play.jump)},
                {"before", play.before},
                {"after", play.after}};
      std::string text = seat_ref(p) + " " + std::string(jump_words(play.jump)) + ": ";
      if (face_up(play.jump)) {
        e["card"] = code(play.card);
        text += words(play.card);
        text += crash ? " is lower than " + std::to_string(play.before) + ": a crash onto the fire!"
                      : " " + fire_words(play.before, play.after);
      } else {
        text += promise_words(play.jump) + " " + fire_words(play.before, play.after);
      }
      e["crash"] = crash;
      e["text"] = text;
      return e;
    });
    if (!face_up(play.jump)) {
      events.emit(Audience::only(p), [&] {
        return json{{"type", "played"},
                    {"card", code(play.card)},
                    {"text", "you played " + words(play.card) + " face down"}};
      });
    }
    if (crash) {
      punish(p, false, next_active(p), false, events);
      return;
    }
    if (play.jump != Jump::kRandom) top_up(p, false, events);
    begin_turn(next_active(p), false, events);
  }

  void doubt(Seat d, Seat t, Events& events) {
    Play& p = fire_[static_cast<std::size_t>(latest_of(t))];
    p.shown = true;
    doubt_ = Doubt{d, t, p.jump, p.card, p.before, promise_kept(p.jump, p.card, p.before)};
    const bool hat = cfg_.hat && !doubt_.kept && heart_cheat(p.jump, p.card, p.before);
    ++turns_;
    events.emit(Audience::all(), [&] {
      return json{{"type", "doubt"},
                  {"seat", d},
                  {"target", t},
                  {"jump", jump_code(doubt_.jump)},
                  {"before", doubt_.before},
                  {"card", code(doubt_.card)},
                  {"kept", doubt_.kept},
                  {"text", seat_ref(d) + " doubts " + seat_ref(t) + "'s " +
                               std::string(jump_words(doubt_.jump)) + " " +
                               promise_words(doubt_.jump) + ": it is " + words(doubt_.card) +
                               (doubt_.kept ? ", as promised." : ", a lie!")}};
    });
    if (doubt_.kept) {
      punish(d, false, next_active(d), false, events);
    } else {
      punish(t, hat, d, true, events);
    }
  }

  // --- Punishment (NG-15) ----------------------------------------------------------------

  void punish(Seat p, bool give_hat, Seat then_seat, bool then_new_fire, Events& events) {
    Gibbon& g = g_[p];
    const int slot = g.burning_slot();
    bool naked = false;
    if (slot >= 0) {
      const Card burnt = g.limbs[slot].table;
      g.limbs[slot].burn = burnt;
      placed_known_[burnt] = everyone();
      g.limbs[slot].table = kNoCard;
      const int marks = g.burnmarks();
      events.emit(Audience::all(), [&] {
        return json{{"type", "burnmark"},
                    {"seat", p},
                    {"slot", slot},
                    {"card", code(burnt)},
                    {"burnmarks", marks},
                    {"text", seat_ref(p) + " gets a burnmark: " + words(burnt) + " burns on " +
                                 slot_words(slot) + " (" + std::to_string(marks) + " of " +
                                 std::to_string(cfg_.burn_limit) + ")."}};
      });
      if (marks >= cfg_.burn_limit) {
        if (!cfg_.survival) {
          end_round(p, false, events);
          return;
        }
        eliminate(p, events);
        if (active_count() <= 1) {
          discard_fire();
          end_round(eliminated_[0], false, events);
          return;
        }
        give_hat = false;
      } else {
        for (Limb& l : g.limbs) {
          if (l.table != kNoCard) {
            discard_.push_back(l.table);
            placed_known_[l.table] = everyone();
          }
          l.table = kNoCard;
        }
        discard_hand(g);
        top_up(p, false, events);
        if (hat_ == p) {
          hat_ = -1;
          events.emit(Audience::all(), [&] {
            return json{
                {"type", "hat"},
                {"seat", p},
                {"wearing", false},
                {"text", "The burnmark relieves " + seat_ref(p) + " of the Heartless Monkey Hat."}};
          });
        }
      }
    } else {
      naked = true;
      for (Card c : g.hand.list()) pending_.push(c);
      g.hand.clear();
      events.emit(Audience::all(), [&] {
        json cards = json::array();
        for (Card c : pending_.list()) cards.push_back(code(c));
        return json{{"type", "naked"},
                    {"seat", p},
                    {"cards", std::move(cards)},
                    {"text", seat_ref(p) + " gets naked: " +
                                 (pending_.n == 0 ? std::string("no hand cards")
                                                  : list_words(pending_.list())) +
                                 " go face up onto the table."}};
      });
    }
    if (give_hat) {
      hat_ = p;
      events.emit(Audience::all(), [&] {
        return json{{"type", "hat"},
                    {"seat", p},
                    {"wearing", true},
                    {"text", seat_ref(p) + " cheated with a heart and gets the Heartless "
                                           "Monkey Hat."}};
      });
    }
    discard_fire();
    events.emit(Audience::all(), [&] {
      return json{{"type", "new-fire"},
                  {"seat", then_seat},
                  {"text", "The fire is discarded; " + seat_ref(then_seat) +
                               (then_new_fire ? " starts a new fire straight away."
                                              : " starts a new fire.")}};
    });
    if (naked) {
      placer_ = p;
      if (placement_matters()) {
        // The turn already belongs to the next starter, who waits for the placement.
        phase_ = Phase::kNakedPlace;
        current_ = then_seat;
        after_new_fire_ = then_new_fire;
        return;
      }
      put_on_table(default_placement(), events);
    }
    begin_turn(then_seat, then_new_fire, events);
  }

  void discard_fire() {
    for (const Play& p : fire_) {
      discard_.push_back(p.card);
      placed_known_[p.card] = face_up(p.jump) || p.shown ? everyone() : 1u << p.by;
    }
    fire_.clear();
    fire_number_ = 0;
  }

  // Survival: the gibbon without a tail drops out and all its cards go back into the game.
  void eliminate(Seat p, Events& events) {
    Gibbon& g = g_[p];
    // A burnmark keeps who knows it (everyone, or nobody for a Veteran's).
    for (Limb& l : g.limbs) {
      if (l.table != kNoCard) {
        discard_.push_back(l.table);
        placed_known_[l.table] = everyone();
      }
      if (l.burn != kNoCard) discard_.push_back(l.burn);
      l = Limb();
    }
    discard_hand(g);
    g.out = true;
    if (hat_ == p) hat_ = -1;
    eliminated_[eliminated_n_++] = static_cast<std::int8_t>(p);
    events.emit(Audience::all(), [&] {
      return json{
          {"type", "out"}, {"seat", p}, {"text", seat_ref(p) + " burns the tail and drops out."}};
    });
  }

  // --- Turns and rounds ------------------------------------------------------------------

  void begin_turn(Seat s, bool new_fire, Events& events) {
    if (turns_ >= kRoundTurnLimit) {
      end_round(stalemate_loser(s), true, events);
      return;
    }
    current_ = s;
    phase_ = new_fire ? Phase::kNewFire : Phase::kMain;
  }

  Seat stalemate_loser(Seat from) const {
    if (cfg_.survival && eliminated_n_ > 0) return eliminated_[0];
    Seat loser = -1;
    for (int k = 0; k < seats_; ++k) {
      const Seat s = order_[(pos_[from] + k) % seats_];
      if (g_[s].out) continue;
      if (loser < 0 || g_[s].burnmarks() > g_[loser].burnmarks()) loser = s;
    }
    return loser;
  }

  void end_round(Seat loser, bool stalemate, Events& events) {
    round_loser_ = loser;
    ++g_[loser].losses;
    events.emit(Audience::all(), [&] {
      std::string why =
          stalemate ? "The round reaches " + std::to_string(kRoundTurnLimit) + " turns and ends: "
                    : "";
      return json{{"type", "round-over"},
                  {"round", round_},
                  {"loser", loser},
                  {"stalemate", stalemate},
                  {"text", why + seat_ref(loser) + " loses round " + std::to_string(round_) + " (" +
                               count_words(g_[loser].losses, "loss") + ")."}};
    });
    if (g_[loser].losses >= cfg_.losses_to_end) {
      phase_ = Phase::kOver;
      events.emit(Audience::all(), [&] {
        return json{{"type", "game-over"},
                    {"result", result().to_json()},
                    {"text", seat_ref(loser) + " has lost the game."}};
      });
      return;
    }
    if (seats_ >= 3) {
      phase_ = Phase::kSwap;
      current_ = loser;
    } else {
      new_round(loser, events);
    }
  }

  void swap_seats(Seat loser, Seat other, Events& events) {
    std::swap(order_[pos_[loser]], order_[pos_[other]]);
    std::swap(pos_[loser], pos_[other]);
    events.emit(Audience::all(), [&] {
      return json{{"type", "swap"},
                  {"seat", loser},
                  {"with", other},
                  {"text", seat_ref(loser) + " swaps places with " + seat_ref(other) + "."}};
    });
    new_round(loser, events);
  }

  // Every card back together, shuffled with the game's generator, and dealt by the loser.
  void new_round(Seat dealer, Events& events) {
    std::vector<Card> all;
    cards(all);
    std::sort(all.begin(), all.end());
    rng_.shuffle(all);
    for (int s = 0; s < seats_; ++s) {
      const std::uint8_t losses = g_[s].losses;
      g_[s] = Gibbon();
      g_[s].losses = losses;
    }
    deck_.clear();
    discard_.clear();
    placed_known_.fill(0);
    fire_.clear();
    fire_number_ = 0;
    pending_.clear();
    hat_ = -1;
    doubt_ = Doubt();
    eliminated_n_ = 0;
    turns_ = 0;
    round_loser_ = -1;
    ++round_;
    deal(std::move(all), dealer);
    events.emit(Audience::all(), [&] {
      return json{{"type", "new-round"},
                  {"round", round_},
                  {"dealer", dealer},
                  {"text", "Round " + std::to_string(round_) + ": " + seat_ref(dealer) +
                               " deals; " + seat_ref(current_) + " starts the first fire."}};
    });
    for (Seat s = 0; s < seats_; ++s) {
      events.emit(Audience::only(s), [&] {
        json cards = json::array();
        for (Card c : g_[s].hand.list()) cards.push_back(code(c));
        return json{{"type", "dealt"},
                    {"cards", std::move(cards)},
                    {"text", "you were dealt " + list_words(g_[s].hand.list())}};
      });
    }
  }

  // Three cards each, one at a time clockwise from the dealer's left, then the Veterans'
  // hidden burnmarks into slot 1 (NG-17); the dealer's left starts.
  void deal(std::vector<Card> top_first, Seat dealer) {
    dealer_ = dealer;
    deck_.assign(top_first.rbegin(), top_first.rend());
    const int from = pos_[dealer];
    for (int r = 0; r < kSlots; ++r) {
      for (int k = 1; k <= seats_; ++k) {
        g_[order_[(from + k) % seats_]].hand.push(deck_.back());
        deck_.pop_back();
      }
    }
    if (cfg_.veterans) {
      for (int k = 1; k <= seats_; ++k) {
        g_[order_[(from + k) % seats_]].limbs[0].burn = deck_.back();
        placed_known_[deck_.back()] = 0;
        deck_.pop_back();
      }
    }
    current_ = order_[(from + 1) % seats_];
    phase_ = Phase::kMain;
  }

  int seats_;
  Config cfg_;
  Rng rng_;
  std::array<Gibbon, kMaxGibbons> g_{};
  std::array<std::int8_t, kMaxGibbons> order_{};  // position -> seat (seats swap between rounds)
  std::array<std::int8_t, kMaxGibbons> pos_{};    // seat -> position
  std::vector<Card> deck_;                        // top at the back
  std::vector<Card> discard_;
  // Per card, bit s when seat s saw it go to the discards or a burnmark where it lies now
  // (determinization keeps such cards in place for s); zero for every card elsewhere.
  std::array<std::uint32_t, 54> placed_known_{};
  std::vector<Play> fire_;
  int fire_number_ = 0;
  Phase phase_ = Phase::kMain;
  Seat current_ = 0;
  Seat dealer_ = 0;
  int round_ = 1;
  int turns_ = 0;  // jumps and doubts this round
  Seat hat_ = -1;
  Three pending_;  // face-up cards waiting for a slot (fire bath or getting naked)
  Seat placer_ = 0;
  bool after_new_fire_ = false;  // whether the waiting starter won a doubt
  Doubt doubt_;
  std::array<std::int8_t, kMaxGibbons> eliminated_{};
  int eliminated_n_ = 0;
  Seat round_loser_ = -1;
};

class NakedGibbonGame final : public Game {
 public:
  NakedGibbonGame() {
    info_.id = "naked-gibbon";
    info_.name = "Naked Gibbon";
    info_.summary =
        "Jump over the campfire with your cards, bluff face down, doubt the others: the first "
        "gibbon to burn its tail loses.";
    info_.min_seats = 2;
    info_.max_seats = kMaxGibbons;
    info_.options = {
        OptionSpec::integer("jokers", 2, 0, 2, "jokers in the deck (0, 1 or 2)"),
        OptionSpec::boolean("heartlessHat", true,
                            "Heartless Monkey Hat: a gibbon caught cheating with a heart wears "
                            "the hat and may not back flip until a burnmark or someone else "
                            "takes it"),
        OptionSpec::boolean("veterans", false,
                            "The Veterans: everyone starts with one hidden burnmark"),
        OptionSpec::boolean("neverMyTail", false,
                            "Never My Tail: the second burnmark burns the tail"),
        OptionSpec::boolean("survival", false,
                            "Survival of the Fittest: a gibbon without a tail drops out and the "
                            "last one jumping wins"),
        OptionSpec::integer("lossesToEndMatch", 1, 1, 3,
                            "rounds: the game ends when someone has lost this many rounds; the "
                            "loser swaps seats with a player of their choice and deals"),
    };
    // Per round at most kRoundTurnLimit jumps and doubts, each with at most 3 spot moults, a
    // fire bath, a placement and a naked placement before or after it; one swap per round; at
    // most 6 * (3 - 1) + 1 rounds.
    info_.max_actions = (kMaxGibbons * 2 + 1) * (kRoundTurnLimit * 7 + 1);
  }

  const GameInfo& info() const override { return info_; }

  Status check_options(const Options& o, int) const override {
    const Config c = config(o);
    const int starting = c.veterans ? 1 : 0;
    if (starting >= c.burn_limit) {
      return make_error("bad_options",
                        "the gibbons would start without a tail: the starting "
                        "burnmarks must stay below the burnmark limit");
    }
    return std::nullopt;
  }

  std::vector<Card> deck(const Options& o, int) const override {
    return standard::deck(o.get_int("jokers"));
  }

  std::unique_ptr<State> start(int seats, const Options& o, std::vector<Card> deck_top_first,
                               Rng rng) const override {
    return std::make_unique<NakedGibbonState>(seats, config(o), std::move(deck_top_first), rng);
  }

  schema::GameSchema schema() const override { return game_schema(*this); }
  std::string card_code(Card c) const override { return standard::code(c); }
  std::optional<Card> parse_card(std::string_view s) const override { return standard::parse(s); }

 protected:
  json encode_action(const Action& a) const override {
    switch (a.kind) {
      case kSpotMoult:
        return {{"move", "spot-moult"}, {"card", code(card_of(a, 0))}, {"slot", a.arg(1)}};
      case kFireBath:
        return {{"move", "fire-bath"}};
      case kPlace: {
        json slots = json::array();
        for (int i = 0; i < a.argc; ++i) slots.push_back(a.arg(i));
        return {{"move", "place"}, {"slots", std::move(slots)}};
      }
      case kHandsUp:
        return {{"move", "hands-up"}, {"card", code(card_of(a, 0))}};
      case kChestUp:
        return {{"move", "chest-up"}, {"slot", a.arg(0)}};
      case kRandom:
        return {{"move", "random"}};
      case kBackFlip:
        return {{"move", "back-flip"}, {"card", code(card_of(a, 0))}};
      case kSideFlip:
        return {{"move", "side-flip"}, {"card", code(card_of(a, 0))}};
      case kDoubt:
        return {{"move", "doubt"}, {"target", a.arg(0)}};
      case kSwap:
        return {{"move", "swap"}, {"with", a.arg(0)}};
      default:
        return {{"move", "unknown"}};
    }
  }

  Expected<Action> decode_action(const std::string& move, const json& a) const override {
    auto bad = [](std::string why) { return make_error("bad_action", std::move(why)); };
    auto card = [&](const char* key) -> std::optional<Card> {
      auto it = a.find(key);
      if (it == a.end() || !it->is_string()) return std::nullopt;
      return standard::parse(it->get_ref<const std::string&>());
    };
    auto number = [&](const char* key, int lo, int hi) -> std::optional<int> {
      auto it = a.find(key);
      if (it == a.end() || !it->is_number_integer()) return std::nullopt;
      const auto v = it->get<long long>();
      if (v < lo || v > hi) return std::nullopt;
      return static_cast<int>(v);
    };
    const std::string card_help = " needs a \"card\" from your hand, like \"7S\", \"TH\" or \"X1\"";
    if (move == "fire-bath") return Action::make(kFireBath);
    if (move == "random") return Action::make(kRandom);
    if (move == "hands-up" || move == "back-flip" || move == "side-flip") {
      const auto c = card("card");
      if (!c) return bad(move + card_help);
      const std::uint8_t kind = move == "hands-up"    ? kHandsUp
                                : move == "back-flip" ? kBackFlip
                                                      : kSideFlip;
      return Action::make(kind, {*c});
    }
    if (move == "spot-moult") {
      const auto c = card("card");
      const auto slot = number("slot", 0, kSlots - 1);
      if (!c) return bad(move + card_help);
      if (!slot) return bad("spot-moult needs a \"slot\" 0, 1 or 2");
      return Action::make(kSpotMoult, {*c, *slot});
    }
    if (move == "chest-up") {
      const auto slot = number("slot", 0, kSlots - 1);
      if (!slot) return bad("chest-up needs the \"slot\" (0, 1 or 2) of a table card");
      return Action::make(kChestUp, {*slot});
    }
    if (move == "doubt" || move == "swap") {
      const char* key = move == "doubt" ? "target" : "with";
      const auto s = number(key, 0, kMaxGibbons - 1);
      if (!s) return bad(move + " needs \"" + key + "\": a seat number");
      return Action::make(move == "doubt" ? kDoubt : kSwap, {*s});
    }
    if (move == "place") {
      auto it = a.find("slots");
      const std::string help = "place needs \"slots\": a slot (0, 1 or 2) for each waiting card";
      if (it == a.end() || !it->is_array() || it->empty() || it->size() > kSlots) return bad(help);
      Action out = Action::make(kPlace);
      for (const json& s : *it) {
        if (!s.is_number_integer()) return bad(help);
        const auto v = s.get<long long>();
        if (v < 0 || v >= kSlots) return bad(help);
        out.push(static_cast<std::int32_t>(v));
      }
      return out;
    }
    return bad("unknown move '" + move +
               "' (Naked Gibbon has spot-moult, fire-bath, place, hands-up, chest-up, random, "
               "back-flip, side-flip, doubt and swap)");
  }

 private:
  static Card card_of(const Action& a, int i) { return static_cast<Card>(a.arg(i)); }

  static Config config(const Options& o) {
    Config c;
    c.jokers = o.get_int("jokers");
    c.hat = o.get_bool("heartlessHat");
    c.veterans = o.get_bool("veterans");
    c.burn_limit = o.get_bool("neverMyTail") ? 2 : 3;
    c.survival = o.get_bool("survival");
    c.losses_to_end = o.get_int("lossesToEndMatch");
    return c;
  }

  GameInfo info_;
};

}  // namespace

const Game& game() {
  static const NakedGibbonGame instance;
  return instance;
}

}  // namespace campfire::naked_gibbon
