#include "engine/tricky_tribes/tricky_tribes.hpp"
#include "engine/tricky_tribes/tricky_tribes_schema.hpp"

#include <algorithm>
#include <array>
#include <string_view>
#include <vector>

#include "engine/core/standard_cards.hpp"

namespace campfire::tricky_tribes {

namespace st = campfire::standard;

int card_value(Card c) {
  return st::is_joker(c) ? 10 : st::rank(c);
}

int card_points(Card c) {
  if (st::is_joker(c)) return 1;
  const int worth = st::rank(c) >= st::kJack ? 2 : 1;
  return st::is_red(c) ? worth : -worth;
}

namespace {

constexpr int kMaxTribes = 7;  // six players, or three and the dummy
constexpr std::uint32_t kExchangeMillis = 30000;
constexpr std::uint32_t kTrimMillis = 20000;
constexpr std::uint32_t kVoteMillis = 30000;

bool is_high(Card c) {
  return !st::is_joker(c) && st::rank(c) >= st::kJack;
}

enum class Teams : std::uint8_t { kNone, kPairs, kTriples };
enum class EndMode : std::uint8_t { kTarget, kFixedRounds, kManual };
enum class Phase : std::uint8_t { kExchange, kTrim, kTricks, kVote, kOver };
enum class TrickKind : std::uint8_t { kOpenRed, kOpenBlack, kOpenJoker, kDark };

constexpr std::string_view kind_name(TrickKind k) {
  switch (k) {
    case TrickKind::kOpenRed:
      return "open-red";
    case TrickKind::kOpenBlack:
      return "open-black";
    case TrickKind::kOpenJoker:
      return "open-joker";
    case TrickKind::kDark:
      return "dark";
  }
  return "";
}

// Exchange progress per seat (bits).
constexpr std::uint8_t kDrew = 1;
constexpr std::uint8_t kDiscarded = 2;
constexpr std::uint8_t kSkipped = 4;

std::string words(Card c) {
  return st::words(c);
}

// Everything fixed for a game, resolved from the options and the seat count.
struct Config {
  int seats = 0;
  bool dummy = false;
  bool cut = false;
  int jokers = 0;
  int hand = 9;
  Teams teams = Teams::kNone;
  int pairs = 0;  // teams of two with Teams::kPairs; the other seats play solo
  EndMode end = EndMode::kTarget;
  int target = 15;
  int rounds = 5;
  bool operator==(const Config&) const = default;

  bool trim_deal() const { return seats == 6 && jokers < 2; }
  int deck_size() const { return (cut ? 44 : 52) + jokers; }
};

Config config_from(const Options& o, int seats) {
  Config c;
  c.seats = seats;
  const std::string dummy = o.get_choice("dummy");
  c.dummy = dummy == "yes" || (dummy == "auto" && seats == 2);
  c.cut = o.get_bool("cutDeck");
  c.jokers = o.get_int("jokers");
  c.hand = seats == 6 ? 8 : (o.get_bool("tenCards") ? 10 : 9);
  const std::string teams = o.get_choice("teams");
  c.teams = teams == "pairs" ? Teams::kPairs : teams == "triples" ? Teams::kTriples : Teams::kNone;
  c.pairs = o.get_int("pairs");
  if (c.teams == Teams::kPairs && c.pairs == 0) c.pairs = seats / 2;
  const std::string end = o.get_choice("endMode");
  c.end = end == "fixedRounds" ? EndMode::kFixedRounds
          : end == "manual"    ? EndMode::kManual
                               : EndMode::kTarget;
  c.target = o.get_int("target");
  if (c.target == 0) {
    c.target = c.teams == Teams::kPairs ? 30 : c.teams == Teams::kTriples ? 50 : 15;
  }
  c.rounds = o.get_int("rounds");
  return c;
}

std::vector<Card> build_deck(bool cut, int jokers) {
  std::vector<Card> d;
  for (Card c : st::deck(jokers)) {
    if (cut && !st::is_joker(c) && st::rank(c) <= 3) continue;
    d.push_back(c);
  }
  return d;
}

// The outcome of one trick: who took what.
struct Outcome {
  TrickKind kind = TrickKind::kDark;
  int winner = -1;  // index in play order of the highest active card, -1 for a penalty
  int loser = -1;   // index in play order of the punished card
  int taker = 0;    // index in play order of whoever collects and leads next
  std::array<bool, kMaxTribes> taken{};  // by play index: the cards the taker collects
};

// Ranks a complete trick (TT-7 .. TT-10). `cards` are in play order, the leader's first.
Outcome judge(const Card* cards, int count, bool open) {
  Outcome out;
  // Keys: a higher key is a higher card; the play index breaks ties so later is higher.
  auto best = [&](auto key) {
    int at = -1;
    int best_key = -1;
    for (int i = open ? 1 : 0; i < count; ++i) {
      const int k = key(cards[i]) * 16 + i;
      if (k > best_key) {
        best_key = k;
        at = i;
      }
    }
    return at;
  };
  // Every red and joker but the winner's own; a winning J, Q, K or A takes only the highest.
  auto collect_loot = [&](int winner, bool leader_in_trick) {
    int highest = -1;
    for (int i = leader_in_trick ? 0 : 1; i < count; ++i) {
      if (i == winner || !(st::is_red(cards[i]) || st::is_joker(cards[i]))) continue;
      out.taken[i] = true;
      if (highest < 0 ||
          card_value(cards[i]) * 16 + i > card_value(cards[highest]) * 16 + highest) {
        highest = i;
      }
    }
    if (highest >= 0 && is_high(cards[winner])) {
      out.taken.fill(false);
      out.taken[highest] = true;
    }
  };
  if (!open) {
    out.kind = TrickKind::kDark;
    out.winner = best([](Card c) { return card_value(c); });
    out.taker = out.winner;
    collect_loot(out.winner, true);
    return out;
  }
  const Card offered = cards[0];
  if (st::is_joker(offered)) {
    out.kind = TrickKind::kOpenJoker;
    out.winner = best([](Card c) { return card_value(c); });
    out.taker = out.winner;
    out.taken[0] = true;
    return out;
  }
  const bool red = st::is_red(offered);
  // A joker takes the trick colour; the trick colour ranks above the other.
  auto key = [red](Card c) {
    const bool in_colour = st::is_joker(c) || st::is_red(c) == red;
    return (in_colour ? 16 : 0) + card_value(c);
  };
  if (red) {
    out.kind = TrickKind::kOpenRed;
    out.winner = best(key);
    out.taker = out.winner;
    out.taken[0] = true;
    return out;
  }
  out.kind = TrickKind::kOpenBlack;
  bool any_red = false;
  for (int i = 1; i < count; ++i) any_red |= st::is_red(cards[i]);
  if (!any_red) {
    int at = -1;
    int low = 0;
    for (int i = 1; i < count; ++i) {
      const int k = key(cards[i]) * 16 + i;
      if (at < 0 || k < low) {
        low = k;
        at = i;
      }
    }
    out.loser = at;
    out.taker = at;
    out.taken[0] = true;
    return out;
  }
  out.winner = best(key);
  out.taker = out.winner;
  collect_loot(out.winner, false);
  return out;
}

// The last resolved trick, kept for the views.
struct TrickRecord {
  std::array<Card, kMaxTribes> cards{};
  std::array<std::int8_t, kMaxTribes> by{};
  std::array<bool, kMaxTribes> taken{};
  std::int8_t count = 0;
  TrickKind kind = TrickKind::kDark;
  std::int8_t winner = -1;  // tribe
  std::int8_t loser = -1;   // tribe
  std::int8_t taker = -1;   // tribe
  bool operator==(const TrickRecord&) const = default;
};

class TrickyTribesState final : public StateBase<TrickyTribesState> {
 public:
  TrickyTribesState(const Config& config, std::vector<Card> deck, Rng rng)
      : cfg_(config),
        rng_(rng),
        hands_(static_cast<std::size_t>(config.seats)),
        stacks_(static_cast<std::size_t>(tribes_of(config))),
        round_points_(static_cast<std::size_t>(tribes_of(config)), 0),
        totals_(static_cast<std::size_t>(config.seats), 0) {
    setup_sides();
    dealer_ = cfg_.seats - 1;
    Events none(false);
    start_round(std::move(deck), none);
  }

  bool operator==(const TrickyTribesState&) const = default;

  int seats() const override { return cfg_.seats; }
  bool over() const override { return phase_ == Phase::kOver; }

  SeatSet to_act() const override {
    SeatSet s;
    switch (phase_) {
      case Phase::kExchange:
        for (Seat p = 0; p < cfg_.seats; ++p) {
          if (!exchange_done(p)) s.insert(p);
        }
        break;
      case Phase::kTrim:
        for (Seat p = 0; p < cfg_.seats; ++p) {
          if (must_trim(p)) s.insert(p);
        }
        break;
      case Phase::kTricks:
        if (next_ != dummy()) s.insert(next_);
        break;
      case Phase::kVote:
        for (Seat p = 0; p < cfg_.seats; ++p) {
          if (votes_[p] == 0) s.insert(p);
        }
        break;
      case Phase::kOver:
        break;
    }
    return s;
  }

  std::optional<Window> window() const override {
    switch (phase_) {
      case Phase::kExchange:
        return Window{window_id_, kExchangeMillis, "exchange", to_act()};
      case Phase::kTrim:
        return Window{window_id_, kTrimMillis, "trim", to_act()};
      case Phase::kVote:
        return Window{window_id_, kVoteMillis, "vote", to_act()};
      default:
        return std::nullopt;
    }
  }

  Result result() const override {
    Result r;
    r.scores.resize(static_cast<std::size_t>(cfg_.seats));
    for (Seat s = 0; s < cfg_.seats; ++s) r.scores[s] = totals_[side_[s]];
    r.places = Result::places_descending(r.scores);
    const int hi = *std::max_element(r.scores.begin(), r.scores.end());
    const int lo = *std::min_element(r.scores.begin(), r.scores.end());
    const bool by_target =
        cfg_.end == EndMode::kTarget && hi >= cfg_.target;  // else the highest total wins
    for (Seat s = 0; s < cfg_.seats; ++s) {
      const bool wins = by_target ? r.scores[s] >= cfg_.target : r.scores[s] == hi;
      if (wins) {
        r.winners.push_back(s);
        r.places[s] = 1;
      } else if (r.scores[s] == lo) {
        r.losers.push_back(s);
      }
    }
    return r;
  }

  std::string describe(Seat, const Action& a) const override {
    const Card c = static_cast<Card>(a.arg(0));
    switch (a.kind) {
      case kDraw:
        return "draw your exchange card";
      case kDiscard:
        return "discard " + words(c) + " face down";
      case kSkip:
        return "keep your hand (no exchange)";
      case kTrim:
        return "discard " + words(c) + " face down to keep 8 cards";
      case kLead:
        return a.arg(1) ? "lead " + words(c) + " face up (open trick)"
                        : "lead " + words(c) + " face down (dark trick)";
      case kRespond:
        return "play " + words(c) + " face down";
      case kContinue:
        return "play another round";
      case kStop:
        return "end the game now";
      default:
        return "?";
    }
  }

  void write_view(Seat viewer, ViewWriter& w) const override {
    const auto tribe = [&](int t) {
      if (t == dummy()) {
        w.value("dummy");
      } else {
        w.value(t);
      }
    };
    const auto cards = [&](const std::vector<Card>& cs) {
      w.begin_array();
      for (Card c : cs) w.value(st::code(c));
      w.end_array();
    };
    const bool seated = viewer >= 0 && viewer < cfg_.seats;
    const bool tricks = phase_ == Phase::kTricks;
    w.begin_object();
    if (tricks) {
      w.key("currentTrick").begin_object();
      w.key("by").begin_array();
      for (int i = 0; i < trick_count_; ++i) tribe(trick_by_[i]);
      w.end_array();
      w.key("cards").begin_array();
      for (int i = 0; i < trick_count_; ++i) {
        if ((i == 0 && open_) || trick_by_[i] == viewer) {
          w.value(st::code(trick_[i]));
        } else {
          w.null();
        }
      }
      w.end_array();
      // Left out until the lead (and below, a trick's winner or loser when there is none), not
      // null: a member turning null cannot be said by a merge patch, and would cost every seat a
      // whole state at each new trick.
      if (trick_count_ > 0) w.member("open", open_);
      w.end_object();
    }
    w.member("dealer", dealer_);
    w.member("deck", stock_.size());
    w.key("discards");
    cards(open_discards_);
    w.member("dummy", cfg_.dummy);
    if (cfg_.dummy) {
      w.key("dummyStack");
      cards(stacks_[dummy()]);
    }
    w.member("endMode", cfg_.end == EndMode::kTarget        ? "target"
                        : cfg_.end == EndMode::kFixedRounds ? "fixedRounds"
                                                            : "manual");
    if (phase_ == Phase::kExchange) {
      w.key("exchange").begin_array();
      for (Seat s = 0; s < cfg_.seats; ++s) w.value(exchange_word(exchange_[s]));
      w.end_array();
    }
    if (tricks) w.member("forcedOpen", forced_open_);
    if (seated) {
      w.key("hand");
      cards(hands_[viewer]);
    }
    w.key("handCounts").begin_array();
    for (const auto& h : hands_) w.value(h.size());
    w.end_array();
    w.member("hiddenDiscards", hidden_discards_.size());
    if (round_ > 1 || phase_ == Phase::kVote || over()) {
      w.key("lastRoundPoints").begin_array();
      for (Seat s = 0; s < cfg_.seats; ++s) w.value(round_points_[s]);
      w.end_array();
    }
    if (last_.count > 0) {
      w.key("lastTrick").begin_object();
      w.key("by").begin_array();
      for (int i = 0; i < last_.count; ++i) tribe(last_.by[i]);
      w.end_array();
      w.key("cards").begin_array();
      for (int i = 0; i < last_.count; ++i) w.value(st::code(last_.cards[i]));
      w.end_array();
      w.key("collected").begin_array();
      for (int i = 0; i < last_.count; ++i) {
        if (last_.taken[i]) w.value(st::code(last_.cards[i]));
      }
      w.end_array();
      w.key("collector");
      tribe(last_.taker);
      w.member("kind", kind_name(last_.kind));
      if (last_.loser >= 0) {
        w.key("loser");
        tribe(last_.loser);
      }
      if (last_.winner >= 0) {
        w.key("winner");
        tribe(last_.winner);
      }
      w.end_object();
    }
    if (tricks) {
      w.key("leader");
      tribe(leader_);
      w.key("next");
      tribe(next_);
    }
    w.key("order").begin_array();
    int t = first_leader();
    for (int i = 0; i < tribes(); ++i, t = next_tribe(t)) tribe(t);
    w.end_array();
    w.member("phase", phase_name());
    if (over()) result().write(w.key("result"));
    w.member("round", round_);
    if (cfg_.end == EndMode::kFixedRounds) w.member("rounds", cfg_.rounds);
    if (cfg_.teams != Teams::kNone) {
      w.key("sideSolo").array(solo_);
      w.key("sides").array(side_);
    }
    w.key("stackPoints").begin_array();
    for (Seat s = 0; s < cfg_.seats; ++s) w.value(stack_points(s));
    w.end_array();
    w.key("stacks").begin_array();
    for (Seat s = 0; s < cfg_.seats; ++s) cards(stacks_[s]);
    w.end_array();
    if (cfg_.end == EndMode::kTarget) w.member("target", cfg_.target);
    w.key("totals").array(totals_);
    w.member("trick", tricks_done_ + (tricks ? 1 : 0));
    w.member("tricksPerRound", cfg_.hand);
    if (phase_ == Phase::kVote) {
      w.key("voted").begin_array();
      for (Seat s = 0; s < cfg_.seats; ++s) w.value(votes_[s] != 0);
      w.end_array();
      if (seated && votes_[viewer] != 0) {
        w.member("yourVote", votes_[viewer] == kStop ? "end-game" : "next-round");
      }
    }
    w.end_object();
  }

  Action fallback_action(Seat seat) const override {
    switch (phase_) {
      case Phase::kExchange: {
        const std::uint8_t e = exchange_[seat];
        if (e & kDrew) return Action::make(kDiscard, {hands_[seat].back()});
        if (e & kDiscarded) return Action::make(kDraw);
        return Action::make(kSkip);
      }
      case Phase::kTrim:
        return Action::make(kTrim, {lowest(hands_[seat])});
      case Phase::kTricks:
        if (trick_count_ == 0) return Action::make(kLead, {lowest(hands_[seat]), 1});
        return Action::make(kRespond, {lowest(hands_[seat])});
      case Phase::kVote:
        return Action::make(kContinue);
      case Phase::kOver:
        break;
    }
    return Action{};
  }

  void cards(std::vector<Card>& out) const override {
    for (const auto& h : hands_) out.insert(out.end(), h.begin(), h.end());
    for (Seat s = 0; s < cfg_.seats; ++s) {
      if (reserved_[s] != kNoCard) out.push_back(reserved_[s]);
    }
    out.insert(out.end(), stock_.begin(), stock_.end());
    out.insert(out.end(), hidden_discards_.begin(), hidden_discards_.end());
    out.insert(out.end(), open_discards_.begin(), open_discards_.end());
    for (const auto& s : stacks_) out.insert(out.end(), s.begin(), s.end());
    out.insert(out.end(), trick_.begin(), trick_.begin() + trick_count_);
  }

  void hidden_from(Seat viewer, std::vector<Card*>& out) override {
    hidden_slots(viewer, out, [](Card) { return true; });
  }

  // The cards the viewer discarded face down this round.
  json recall(Seat viewer) const override {
    json mine = json::array();
    if (viewer >= 0) {
      for (Card c : hidden_discards_) {
        if (discarded_by_[c] >> viewer & 1u) mine.push_back(st::code(c));
      }
    }
    return {{"discarded", std::move(mine)}};
  }

  // What a determinization re-deals: the hidden cards but those the viewer discarded itself.
  // Hands need not be sorted again: the engine only ever searches them.
  void unknown_to(Seat viewer, std::vector<Card*>& out) override {
    const std::uint32_t me = viewer >= 0 ? 1u << viewer : 0;
    hidden_slots(viewer, out, [&](Card c) { return !(discarded_by_[c] & me); });
  }

 protected:
  void do_legal_actions(Seat seat, std::vector<Action>& out) const override {
    const auto& hand = hands_[seat];
    switch (phase_) {
      case Phase::kExchange: {
        const std::uint8_t e = exchange_[seat];
        if (!(e & kDrew)) out.push_back(Action::make(kDraw));
        if (!(e & kDiscarded)) {
          for (Card c : hand) out.push_back(Action::make(kDiscard, {c}));
        }
        if (e == 0) out.push_back(Action::make(kSkip));
        break;
      }
      case Phase::kTrim:
        for (Card c : hand) out.push_back(Action::make(kTrim, {c}));
        break;
      case Phase::kTricks:
        for (Card c : hand) {
          if (trick_count_ == 0) {
            out.push_back(Action::make(kLead, {c, 1}));
            if (!forced_open_) out.push_back(Action::make(kLead, {c, 0}));
          } else {
            out.push_back(Action::make(kRespond, {c}));
          }
        }
        break;
      case Phase::kVote:
        out.push_back(Action::make(kContinue));
        out.push_back(Action::make(kStop));
        break;
      case Phase::kOver:
        break;
    }
  }

  // Later rounds of a determinized copy are dealt by the bot's generator.
  void after_redeal(Rng& rng) override { rng_.reseed(rng.next()); }

  Status do_apply(Seat seat, const Action& a, Events& events) override {
    if (a.is_timeout()) {
      close_window(events);
      return std::nullopt;
    }
    switch (a.kind) {
      case kDraw:
      case kDiscard:
      case kSkip:
        return apply_exchange(seat, a, events);
      case kTrim:
        return apply_trim(seat, a, events);
      case kLead:
      case kRespond:
        return apply_play(seat, a, events);
      case kContinue:
      case kStop:
        return apply_vote(seat, a, events);
      default:
        return make_error("bad_action", "Tricky Tribes has no such move");
    }
  }

 private:
  // The slots hidden from `viewer`, in layout order: the other seats' hands, the reserved cards,
  // the stock, the face-down discards for which `take_discard` holds, and the trick cards the
  // viewer neither played nor saw led face up. hidden_from takes every face-down discard,
  // unknown_to all but the viewer's own; one walk keeps their orders in step.
  template <class TakeDiscard>
  void hidden_slots(Seat viewer, std::vector<Card*>& out, TakeDiscard take_discard) {
    for (Seat s = 0; s < cfg_.seats; ++s) {
      if (s == viewer) continue;
      for (Card& c : hands_[s]) out.push_back(&c);
    }
    for (Seat s = 0; s < cfg_.seats; ++s) {
      if (reserved_[s] != kNoCard) out.push_back(&reserved_[s]);
    }
    for (Card& c : stock_) out.push_back(&c);
    for (Card& c : hidden_discards_) {
      if (take_discard(c)) out.push_back(&c);
    }
    for (int i = 0; i < trick_count_; ++i) {
      if ((i == 0 && open_) || trick_by_[i] == viewer) continue;
      out.push_back(&trick_[i]);
    }
  }

  static int tribes_of(const Config& c) { return c.seats + (c.dummy ? 1 : 0); }
  int tribes() const { return tribes_of(cfg_); }
  // The dummy's tribe number; equal to seats() so it never names a seat.
  int dummy() const { return cfg_.dummy ? cfg_.seats : -2; }

  // The ring of play: with a dummy it sits between the dealer and the dealer's left (TT-6).
  int next_tribe(int t) const {
    if (cfg_.dummy) {
      if (t == dealer_) return dummy();
      if (t == dummy()) return (dealer_ + 1) % cfg_.seats;
    }
    return (t + 1) % cfg_.seats;
  }
  int first_leader() const { return cfg_.dummy ? dummy() : (dealer_ + 1) % cfg_.seats; }

  // Where a seat is in the exchange, as views show it.
  static const char* exchange_word(std::uint8_t e) {
    return e & kSkipped                      ? "kept"
           : (e & kDrew) && (e & kDiscarded) ? "exchanged"
           : e & kDrew                       ? "drew"
           : e & kDiscarded                  ? "discarded"
                                             : "deciding";
  }
  json tribe_json(int t) const { return t == dummy() ? json("dummy") : json(t); }
  std::string tribe_name(int t) const {
    return t == dummy() ? std::string("the Dummy Tribe") : seat_ref(t);
  }

  static json codes(const std::vector<Card>& cs) {
    json a = json::array();
    for (Card c : cs) a.push_back(st::code(c));
    return a;
  }
  static std::string list_words(const std::vector<Card>& cs) {
    std::string s;
    for (std::size_t i = 0; i < cs.size(); ++i) s += (i ? ", " : "") + words(cs[i]);
    return s.empty() ? "nothing" : s;
  }
  static Card lowest(const std::vector<Card>& hand) {
    return *std::min_element(hand.begin(), hand.end(), [](Card x, Card y) {
      return card_value(x) != card_value(y) ? card_value(x) < card_value(y) : x < y;
    });
  }
  static bool holds(const std::vector<Card>& hand, std::int32_t card) {
    return std::find(hand.begin(), hand.end(), card) != hand.end();
  }
  static void remove(std::vector<Card>& hand, Card c) {
    hand.erase(std::find(hand.begin(), hand.end(), c));
  }
  int stack_points(int tribe) const {
    int p = 0;
    for (Card c : stacks_[tribe]) p += card_points(c);
    return p;
  }

  std::string_view phase_name() const {
    switch (phase_) {
      case Phase::kExchange:
        return "exchange";
      case Phase::kTrim:
        return "trim";
      case Phase::kTricks:
        return trick_count_ == 0 ? "lead" : "respond";
      case Phase::kVote:
        return "vote";
      case Phase::kOver:
        return "over";
    }
    return "";
  }

  json last_round_json() const {
    json p = json::array();
    for (Seat s = 0; s < cfg_.seats; ++s) p.push_back(round_points_[s]);
    return p;
  }

  void setup_sides() {
    const int n = cfg_.seats;
    side_.assign(static_cast<std::size_t>(n), 0);
    solo_.assign(static_cast<std::size_t>(n), false);
    switch (cfg_.teams) {
      case Teams::kNone:
        for (Seat s = 0; s < n; ++s) side_[s] = s;
        break;
      case Teams::kPairs: {
        // Teammates sit opposite (TT-13): pair i is seat i and seat i + ceil(n/2).
        const int offset = (n + 1) / 2;
        for (Seat s = 0; s < n; ++s) side_[s] = s;
        for (Seat s = 0; s < cfg_.pairs; ++s) side_[s + offset] = s;
        for (Seat s = 0; s < n; ++s) {
          solo_[s] = std::count(side_.begin(), side_.end(), side_[s]) == 1;
        }
        break;
      }
      case Teams::kTriples:
        for (Seat s = 0; s < n; ++s) side_[s] = s % 2;
        break;
    }
  }

  bool exchange_done(Seat s) const {
    const std::uint8_t e = exchange_[s];
    return (e & kSkipped) || ((e & kDrew) && (e & kDiscarded));
  }
  bool must_trim(Seat s) const { return static_cast<int>(hands_[s].size()) > cfg_.hand; }

  // --- Rounds -------------------------------------------------------------------------------

  void start_round(std::vector<Card> deck, Events& events) {
    ++round_;
    for (auto& h : hands_) h.clear();
    for (auto& s : stacks_) s.clear();
    stock_.clear();
    hidden_discards_.clear();
    discarded_by_.fill(0);
    open_discards_.clear();
    reserved_.fill(kNoCard);
    exchange_.fill(0);
    votes_.fill(0);
    last_ = TrickRecord{};
    trick_count_ = 0;
    tricks_done_ = 0;
    forced_open_ = false;
    const int n = cfg_.seats;
    std::size_t pos = 0;
    if (cfg_.trim_deal()) {
      // The Six Tribes without enough cards: the whole deck, one at a time (TT-3).
      for (std::size_t i = 0; i < deck.size(); ++i) {
        hands_[(dealer_ + 1 + static_cast<int>(i)) % n].push_back(deck[i]);
      }
      pos = deck.size();
    } else {
      for (int k = 0; k < cfg_.hand; ++k) {
        for (int i = 1; i <= n; ++i) hands_[(dealer_ + i) % n].push_back(deck[pos++]);
      }
      for (int i = 1; i <= n; ++i) reserved_[(dealer_ + i) % n] = deck[pos++];
    }
    // The rest is the dummy's deck, top card at the back.
    stock_.assign(deck.rbegin(), deck.rend() - static_cast<std::ptrdiff_t>(pos));
    for (auto& h : hands_) std::sort(h.begin(), h.end());
    ++window_id_;
    phase_ = cfg_.trim_deal() ? Phase::kTrim : Phase::kExchange;
    events.emit(Audience::all(), [&] {
      return json{
          {"type", "round-start"},
          {"round", round_},
          {"dealer", dealer_},
          {"text", "Round " + std::to_string(round_) + ": " + seat_ref(dealer_) + " deals " +
                       std::to_string(cfg_.hand) + " cards each." +
                       (phase_ == Phase::kTrim ? " Players with 9 cards discard one face down."
                                               : " Everyone may exchange one card.")}};
    });
    for (Seat s = 0; s < n; ++s) {
      events.emit(Audience::only(s), [&] {
        return json{{"type", "dealt"},
                    {"cards", codes(hands_[s])},
                    {"text", "you were dealt " + list_words(hands_[s])}};
      });
    }
  }

  void begin_tricks(Events& events) {
    phase_ = Phase::kTricks;
    leader_ = first_leader();
    next_ = leader_;
    run_automatic(events);
  }

  // The dummy's plays and the reveal happen on their own, right after the action before them.
  void run_automatic(Events& events) {
    while (phase_ == Phase::kTricks) {
      if (trick_count_ == tribes()) {
        resolve(events);
      } else if (next_ == dummy()) {
        const Card c = stock_.back();
        stock_.pop_back();
        play_card(dummy(), c, trick_count_ == 0 && forced_open_, events);
      } else {
        break;
      }
    }
  }

  void play_card(int tribe, Card c, bool face_up, Events& events) {
    if (trick_count_ == 0) open_ = face_up;
    trick_[trick_count_] = c;
    trick_by_[trick_count_] = static_cast<std::int8_t>(tribe);
    ++trick_count_;
    const bool leading = trick_count_ == 1;
    events.emit(Audience::all(), [&] {
      std::string text = tribe_name(tribe);
      if (leading && face_up) {
        text += " leads " + words(c) + " face up: an open trick.";
      } else if (leading) {
        text += " leads a card face down: a dark trick.";
      } else {
        text += " plays a card face down.";
      }
      json e = {{"type", leading ? "lead" : "respond"},
                {"by", tribe_json(tribe)},
                {"faceUp", leading && face_up},
                {"text", text}};
      if (leading && face_up) e["card"] = st::code(c);
      return e;
    });
    if (tribe != dummy() && !(leading && face_up)) {
      events.emit(Audience::only(tribe), [&] {
        return json{{"type", "you-played"},
                    {"card", st::code(c)},
                    {"text", "you played " + words(c) + " face down"}};
      });
    }
    next_ = next_tribe(tribe);
  }

  void resolve(Events& events) {
    const Outcome o = judge(trick_.data(), trick_count_, open_);
    const int taker = trick_by_[o.taker];
    TrickRecord rec;
    rec.count = trick_count_;
    rec.kind = o.kind;
    rec.winner = o.winner >= 0 ? trick_by_[o.winner] : -1;
    rec.loser = o.loser >= 0 ? trick_by_[o.loser] : -1;
    rec.taker = static_cast<std::int8_t>(taker);
    std::vector<Card> loot;
    for (int i = 0; i < trick_count_; ++i) {
      rec.cards[i] = trick_[i];
      rec.by[i] = trick_by_[i];
      rec.taken[i] = o.taken[i];
      if (o.taken[i]) {
        stacks_[taker].push_back(trick_[i]);
        loot.push_back(trick_[i]);
      } else {
        open_discards_.push_back(trick_[i]);
      }
    }
    const bool leader_won_dark = o.kind == TrickKind::kDark && o.winner == 0;
    last_ = rec;
    events.emit(Audience::all(), [&] {
      json plays = json::array();
      std::string shown;
      for (int i = 0; i < rec.count; ++i) {
        plays.push_back({{"by", tribe_json(rec.by[i])}, {"card", st::code(rec.cards[i])}});
        shown += (i ? ", " : "") + tribe_name(rec.by[i]) + " " + words(rec.cards[i]);
      }
      std::string text = "Revealed: " + shown + ". ";
      if (o.loser >= 0) {
        text += "No red was played: " + tribe_name(taker) + " played the lowest black and takes " +
                list_words(loot) + " as a penalty.";
      } else {
        text += tribe_name(taker) + " wins with " + words(rec.cards[o.winner]) + " and collects " +
                list_words(loot) + ".";
      }
      return json{{"type", "trick"},           {"kind", kind_name(o.kind)},
                  {"plays", std::move(plays)}, {"collector", tribe_json(taker)},
                  {"collected", codes(loot)},  {"text", text}};
    });
    trick_count_ = 0;
    ++tricks_done_;
    if (tricks_done_ == cfg_.hand) {
      end_round(events);
      return;
    }
    leader_ = taker;
    next_ = taker;
    forced_open_ = leader_won_dark;
    if (forced_open_) {
      events.emit(Audience::all(), [&] {
        return json{{"type", "forced-open"},
                    {"by", tribe_json(taker)},
                    {"text", tribe_name(taker) + " won their own dark trick and must lead the "
                                                 "next trick face up."}};
      });
    }
  }

  void end_round(Events& events) {
    forced_open_ = false;
    std::vector<int> side_round(static_cast<std::size_t>(cfg_.seats), 0);
    for (int t = 0; t < tribes(); ++t) round_points_[t] = stack_points(t);
    for (Seat s = 0; s < cfg_.seats; ++s) {
      side_round[side_[s]] += round_points_[s] * (solo_[s] ? 2 : 1);
    }
    for (int side = 0; side < cfg_.seats; ++side) totals_[side] += side_round[side];
    events.emit(Audience::all(), [&] {
      std::string text = "Round " + std::to_string(round_) + " scored:";
      for (Seat s = 0; s < cfg_.seats; ++s) {
        text += " " + seat_ref(s) + " " + std::to_string(round_points_[s]) +
                (s + 1 < cfg_.seats ? "," : ".");
      }
      return json{{"type", "round-end"},
                  {"round", round_},
                  {"points", last_round_json()},
                  {"totals", totals_},
                  {"text", text}};
    });
    bool ends = round_ >= kRoundLimit;
    switch (cfg_.end) {
      case EndMode::kTarget:
        for (int t : totals_) ends |= t >= cfg_.target;
        break;
      case EndMode::kFixedRounds:
        ends |= round_ >= cfg_.rounds;
        break;
      case EndMode::kManual:
        break;
    }
    if (ends) {
      finish(events);
    } else if (cfg_.end == EndMode::kManual) {
      phase_ = Phase::kVote;
      votes_.fill(0);
      ++window_id_;
    } else {
      next_round(events);
    }
  }

  void next_round(Events& events) {
    dealer_ = (dealer_ + 1) % cfg_.seats;
    std::vector<Card> deck = build_deck(cfg_.cut, cfg_.jokers);
    rng_.shuffle(deck);
    start_round(std::move(deck), events);
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
      return json{
          {"type", "game-over"},
          {"result", r.to_json()},
          {"text", "The game is over: " + names + (r.winners.size() == 1 ? " wins" : " win") +
                       " with " + std::to_string(r.scores[r.winners.front()]) + " points."}};
    });
  }

  // --- Actions ------------------------------------------------------------------------------

  Status apply_exchange(Seat seat, const Action& a, Events& events) {
    if (phase_ != Phase::kExchange) {
      return make_error("illegal_action", "the exchange is over (or has not begun)");
    }
    const std::uint8_t e = exchange_[seat];
    auto& hand = hands_[seat];
    if (a.kind == kDraw) {
      if (a.argc != 0) return make_error("bad_action", "exchange-draw takes no fields");
      if (e & kDrew) return make_error("illegal_action", "you already drew your exchange card");
      const Card c = reserved_[seat];
      reserved_[seat] = kNoCard;
      hand.push_back(c);
      exchange_[seat] = e | kDrew;
      events.emit(Audience::all(), [&] {
        return json{{"type", "exchange-draw"},
                    {"seat", seat},
                    {"text", seat_ref(seat) + " draws an exchange card."}};
      });
      events.emit(Audience::only(seat), [&] {
        return json{{"type", "you-drew"}, {"card", st::code(c)}, {"text", "you drew " + words(c)}};
      });
    } else if (a.kind == kDiscard) {
      if (a.argc != 1) return make_error("bad_action", "exchange-discard needs a card");
      if (e & kDiscarded) return make_error("illegal_action", "you already discarded a card");
      if (e & kSkipped) return make_error("illegal_action", "you chose to keep your hand");
      if (!holds(hand, a.arg(0))) return make_error("not_in_hand", "you do not hold that card");
      const Card c = static_cast<Card>(a.arg(0));
      remove(hand, c);
      hidden_discards_.push_back(c);
      discarded_by_[c] = 1u << seat;
      exchange_[seat] = e | kDiscarded;
      events.emit(Audience::all(), [&] {
        return json{{"type", "exchange-discard"},
                    {"seat", seat},
                    {"text", seat_ref(seat) + " discards a card face down."}};
      });
      events.emit(Audience::only(seat), [&] {
        return json{{"type", "you-discarded"},
                    {"card", st::code(c)},
                    {"text", "you discarded " + words(c)}};
      });
    } else {
      if (a.argc != 0) return make_error("bad_action", "exchange-skip takes no fields");
      if (e != 0) return make_error("illegal_action", "you have begun your exchange: finish it");
      exchange_[seat] = kSkipped;
      events.emit(Audience::all(), [&] {
        return json{{"type", "exchange-skip"},
                    {"seat", seat},
                    {"text", seat_ref(seat) + " keeps their hand."}};
      });
    }
    if (exchange_done(seat)) std::sort(hand.begin(), hand.end());
    if (to_act().empty()) end_exchange(events);
    return std::nullopt;
  }

  Status apply_trim(Seat seat, const Action& a, Events& events) {
    if (phase_ != Phase::kTrim) return make_error("illegal_action", "there is nothing to trim now");
    if (a.argc != 1) return make_error("bad_action", "trim-discard needs a card");
    if (!holds(hands_[seat], a.arg(0))) {
      return make_error("not_in_hand", "you do not hold that card");
    }
    trim(seat, static_cast<Card>(a.arg(0)), events);
    if (to_act().empty()) begin_tricks(events);
    return std::nullopt;
  }

  void trim(Seat seat, Card c, Events& events) {
    remove(hands_[seat], c);
    hidden_discards_.push_back(c);
    discarded_by_[c] = 1u << seat;
    events.emit(Audience::all(), [&] {
      return json{{"type", "trim"},
                  {"seat", seat},
                  {"text", seat_ref(seat) + " discards a card face down."}};
    });
    events.emit(Audience::only(seat), [&] {
      return json{
          {"type", "you-discarded"}, {"card", st::code(c)}, {"text", "you discarded " + words(c)}};
    });
  }

  Status apply_play(Seat seat, const Action& a, Events& events) {
    if (phase_ != Phase::kTricks) return make_error("illegal_action", "no trick is being played");
    const bool leading = trick_count_ == 0;
    if (a.kind == kLead) {
      if (!leading) return make_error("illegal_action", "the trick is led: respond to it");
      if (a.argc != 2 || (a.arg(1) != 0 && a.arg(1) != 1)) {
        return make_error("bad_action", "lead needs a card and faceUp");
      }
    } else {
      if (leading) return make_error("illegal_action", "you lead this trick: use lead");
      if (a.argc != 1) return make_error("bad_action", "respond needs a card");
    }
    if (!holds(hands_[seat], a.arg(0))) {
      return make_error("not_in_hand", "you do not hold that card");
    }
    const bool face_up = leading ? a.arg(1) == 1 : false;
    if (leading && forced_open_ && !face_up) {
      return make_error("must_lead_open",
                        "you won your own dark trick, so this lead must be face up");
    }
    const Card c = static_cast<Card>(a.arg(0));
    remove(hands_[seat], c);
    play_card(seat, c, face_up, events);
    run_automatic(events);
    return std::nullopt;
  }

  Status apply_vote(Seat seat, const Action& a, Events& events) {
    if (phase_ != Phase::kVote) return make_error("illegal_action", "there is no vote now");
    if (a.argc != 0) return make_error("bad_action", "a vote takes no fields");
    votes_[seat] = a.kind;
    events.emit(Audience::all(), [&] {
      return json{{"type", "voted"}, {"seat", seat}, {"text", seat_ref(seat) + " has voted."}};
    });
    if (to_act().empty()) end_vote(events);
    return std::nullopt;
  }

  void end_vote(Events& events) {
    int stop = 0;
    for (Seat s = 0; s < cfg_.seats; ++s) stop += votes_[s] == kStop;
    events.emit(Audience::all(), [&] {
      return json{{"type", "vote-result"},
                  {"stop", stop},
                  {"text", std::to_string(stop) + " of " + std::to_string(cfg_.seats) +
                               " voted to end the game."}};
    });
    if (2 * stop > cfg_.seats) {
      finish(events);
    } else {
      next_round(events);
    }
  }

  void close_window(Events& events) {
    events.emit(Audience::all(), [&] {
      return json{{"type", "timeout"}, {"text", "Time is up."}};
    });
    switch (phase_) {
      case Phase::kExchange:
        for (Seat s = 0; s < cfg_.seats; ++s) {
          const std::uint8_t e = exchange_[s];
          if ((e & kDrew) && !(e & kDiscarded)) {
            // Back to the hand that was dealt: the drawn card is still the last one.
            const Card drawn = hands_[s].back();
            hidden_discards_.push_back(drawn);
            discarded_by_[drawn] = 1u << s;
            hands_[s].pop_back();
            events.emit(Audience::only(s), [&] {
              return json{{"type", "you-discarded"},
                          {"card", st::code(drawn)},
                          {"text", "time is up: you discarded " + words(drawn)}};
            });
          } else if ((e & kDiscarded) && !(e & kDrew)) {
            hands_[s].push_back(reserved_[s]);
            reserved_[s] = kNoCard;
            std::sort(hands_[s].begin(), hands_[s].end());
          }
          exchange_[s] = (e & (kDrew | kDiscarded)) ? (kDrew | kDiscarded) : kSkipped;
        }
        end_exchange(events);
        break;
      case Phase::kTrim:
        for (Seat s = 0; s < cfg_.seats; ++s) {
          if (must_trim(s)) trim(s, lowest(hands_[s]), events);
        }
        begin_tricks(events);
        break;
      case Phase::kVote:
        for (Seat s = 0; s < cfg_.seats; ++s) {
          if (votes_[s] == 0) votes_[s] = kContinue;
        }
        end_vote(events);
        break;
      default:
        break;
    }
  }

  void end_exchange(Events& events) {
    for (Seat s = 0; s < cfg_.seats; ++s) {
      if (reserved_[s] != kNoCard) {
        hidden_discards_.push_back(reserved_[s]);
        discarded_by_[reserved_[s]] = 0;
        reserved_[s] = kNoCard;
      }
    }
    begin_tricks(events);
  }

  Config cfg_;
  Rng rng_;
  Phase phase_ = Phase::kExchange;
  int round_ = 0;
  Seat dealer_ = 0;
  int tricks_done_ = 0;
  std::int32_t window_id_ = 0;
  std::vector<std::vector<Card>> hands_;  // per seat, sorted
  std::array<Card, 6> reserved_{};        // per seat; kNoCard once drawn or set aside
  std::array<std::uint8_t, 6> exchange_{};
  std::array<std::uint8_t, 6> votes_{};    // 0, kContinue or kStop
  std::vector<Card> stock_;                // the undealt deck, top card at the back
  std::vector<Card> hidden_discards_;      // exchange and trim discards, unused reserved cards
  // Per card, bit s when seat s discarded it face down this round; zero for every other card.
  std::array<std::uint32_t, 54> discarded_by_{};
  std::vector<Card> open_discards_;        // trick cards nobody collected, face up
  std::vector<std::vector<Card>> stacks_;  // collected cards per tribe (the dummy last)
  // The trick in progress, in play order.
  std::array<Card, kMaxTribes> trick_{};
  std::array<std::int8_t, kMaxTribes> trick_by_{};
  int trick_count_ = 0;
  bool open_ = false;
  int leader_ = 0;
  int next_ = 0;
  bool forced_open_ = false;
  TrickRecord last_;
  std::vector<int> round_points_;  // per tribe, of the last scored round
  std::vector<int> side_;          // per seat: its team (or its own seat when solo)
  std::vector<bool> solo_;         // per seat: scores double (a solo player in a team game)
  std::vector<int> totals_;        // per side
};

class TrickyTribesGame final : public Game {
 public:
  TrickyTribesGame() {
    info_.id = "tricky-tribes";
    info_.name = "Tricky Tribes";
    info_.summary =
        "Rival tribes win red sacrifices and dodge black wrath in open and dark tricks.";
    info_.min_seats = 2;
    info_.max_seats = 6;
    info_.options = {
        OptionSpec::integer("jokers", 0, 0, 2,
                            "Joker's Trick: jokers in the deck (worth 10, the trick's colour)"),
        OptionSpec::boolean("cutDeck", false,
                            "Cutting Deck: remove all 2s and 3s (2 or 3 players)"),
        OptionSpec::boolean("tenCards", false,
                            "play with 10 hand cards and tricks (2 or 3 players)"),
        OptionSpec::choice("dummy", "auto", {"auto", "yes", "no"},
                           "Dummy Tribe: auto adds it with 2 players (where it is required); "
                           "yes adds it with 3"),
        OptionSpec::choice("teams", "none", {"none", "pairs", "triples"},
                           "United Tribes: pairs (4-6 players, teammates opposite, the odd seat "
                           "of five plays solo at double score) or two triples (6 players)"),
        OptionSpec::integer("pairs", 0, 0, 3,
                            "with teams of pairs: how many pairs; the other players play solo "
                            "at double score (0: as many pairs as the table holds)"),
        OptionSpec::choice("endMode", "target", {"target", "fixedRounds", "manual"},
                           "end at a target score, after a number of rounds, or when most "
                           "players vote to stop after a round"),
        OptionSpec::integer("target", 0, 0, 50,
                            "target score; 0 means the rule's: 15, 30 with pairs, 50 with "
                            "triples"),
        OptionSpec::integer("rounds", 5, 1, 10, "rounds to play when endMode is fixedRounds"),
    };
    // Per round at most: every player draws and discards, one timeout, one card per player per
    // trick, and a vote with its timeout.
    info_.max_actions = kRoundLimit * (2 * 6 + 1 + 6 * 8 + 6 + 1) + 1;
  }

  const GameInfo& info() const override { return info_; }

  Status check_options(const Options& o, int seats) const override {
    const std::string dummy = o.get_choice("dummy");
    const std::string teams = o.get_choice("teams");
    if (seats == 2 && dummy == "no") {
      return make_error("bad_options",
                        "two players need the Dummy Tribe: an open trick would have only one "
                        "card in it");
    }
    if (seats > 3 && dummy == "yes") {
      return make_error("bad_options", "the Dummy Tribe plays only with 2 or 3 players");
    }
    if (seats > 3 && o.get_bool("cutDeck")) {
      return make_error("bad_options",
                        "the Cutting Deck is for 2 or 3 players: with more there are not "
                        "enough cards");
    }
    if (seats > 3 && o.get_bool("tenCards")) {
      return make_error("bad_options",
                        "10 hand cards are for 2 or 3 players: with more there are not enough "
                        "cards");
    }
    if (teams == "pairs" && seats < 4) {
      return make_error("bad_options",
                        "United Tribes pairs need 4 to 6 players so that no teammates sit side "
                        "by side");
    }
    if (teams == "triples" && seats != 6) {
      return make_error("bad_options", "two teams of three need exactly 6 players");
    }
    const int pairs = o.get_int("pairs");
    if (pairs > 0 && teams != "pairs") {
      return make_error("bad_options", "\"pairs\" counts the teams of two: set teams to pairs");
    }
    if (2 * pairs > seats) {
      return make_error("bad_options", std::to_string(seats) + " players make at most " +
                                           std::to_string(seats / 2) + " pairs");
    }
    const Config c = config_from(o, seats);
    if (!c.trim_deal()) {
      const int needed = seats * c.hand + seats + (c.dummy ? c.hand : 0);
      if (needed > c.deck_size()) {
        return make_error("bad_options", "this setup needs " + std::to_string(needed) +
                                             " cards but the deck has only " +
                                             std::to_string(c.deck_size()));
      }
    }
    return std::nullopt;
  }

  std::vector<Card> deck(const Options& o, int) const override {
    return build_deck(o.get_bool("cutDeck"), o.get_int("jokers"));
  }

  std::unique_ptr<State> start(int seats, const Options& o, std::vector<Card> deck,
                               Rng rng) const override {
    return std::make_unique<TrickyTribesState>(config_from(o, seats), std::move(deck), rng);
  }

  schema::GameSchema schema() const override { return game_schema(*this); }
  std::string card_code(Card c) const override { return st::code(c); }
  std::optional<Card> parse_card(std::string_view code) const override { return st::parse(code); }

 protected:
  json encode_action(const Action& a) const override {
    const Card c = static_cast<Card>(a.arg(0));
    switch (a.kind) {
      case kDraw:
        return {{"move", "exchange-draw"}};
      case kDiscard:
        return {{"move", "exchange-discard"}, {"card", st::code(c)}};
      case kSkip:
        return {{"move", "exchange-skip"}};
      case kTrim:
        return {{"move", "trim-discard"}, {"card", st::code(c)}};
      case kLead:
        return {{"move", "lead"}, {"card", st::code(c)}, {"faceUp", a.arg(1) != 0}};
      case kRespond:
        return {{"move", "respond"}, {"card", st::code(c)}};
      case kContinue:
        return {{"move", "next-round"}};
      case kStop:
        return {{"move", "end-game"}};
      default:
        return {{"move", "unknown"}};
    }
  }

  Expected<Action> decode_action(const std::string& move, const json& a) const override {
    auto card = [&]() -> std::optional<Card> {
      auto it = a.find("card");
      if (it == a.end() || !it->is_string()) return std::nullopt;
      return st::parse(it->get<std::string>());
    };
    if (move == "exchange-draw") return Action::make(kDraw);
    if (move == "exchange-skip") return Action::make(kSkip);
    if (move == "next-round") return Action::make(kContinue);
    if (move == "end-game") return Action::make(kStop);
    std::uint8_t kind = 0;
    if (move == "exchange-discard") kind = kDiscard;
    if (move == "trim-discard") kind = kTrim;
    if (move == "respond") kind = kRespond;
    if (move == "lead") kind = kLead;
    if (kind == 0) {
      return make_error("bad_action",
                        "unknown move '" + move +
                            "' (Tricky Tribes has exchange-draw, exchange-discard, "
                            "exchange-skip, trim-discard, lead, respond, next-round, end-game)");
    }
    const auto c = card();
    if (!c) {
      return make_error("bad_action", move + " needs a \"card\" such as \"7S\", \"TH\" or \"X1\"");
    }
    if (kind != kLead) return Action::make(kind, {*c});
    auto up = a.find("faceUp");
    if (up == a.end() || !up->is_boolean()) {
      return make_error("bad_action", "lead needs \"faceUp\": true (open) or false (dark)");
    }
    return Action::make(kLead, {*c, up->get<bool>() ? 1 : 0});
  }

 private:
  GameInfo info_;
};

}  // namespace

const Game& game() {
  static const TrickyTribesGame instance;
  return instance;
}

}  // namespace campfire::tricky_tribes
