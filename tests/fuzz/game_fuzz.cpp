// Fuzzes one game engine (CAMPFIRE_FUZZ_GAME, chosen at build time) from fuzz bytes: the first
// bytes pick the seat count, the options and the seed; the rest is a script of steps. A step
// plays one of the legal actions (so games reach their deep states), sends raw JSON through
// Game::action_from_json and State::apply, sends a legal action with one field changed, closes
// the open window, or plays the turn timer's fallback move. After every step the invariants of
// the generic suite hold: a refused action changes nothing and emits nothing, only legal actions
// are accepted, cards are conserved, every view and event serialises, the game is never stuck.
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/core/registry.hpp"
#include "tests/fuzz/fuzz_check.hpp"

#ifndef CAMPFIRE_FUZZ_GAME
#error "CAMPFIRE_FUZZ_GAME names the game to fuzz"
#endif

namespace {

using namespace campfire;

constexpr int kMaxSteps = 1000;

std::vector<Card> sorted_cards(const State& s) {
  std::vector<Card> c;
  s.cards(c);
  std::sort(c.begin(), c.end());
  return c;
}

class Run {
 public:
  Run(const Game& game, FuzzedDataProvider& in) : game_(game), in_(in) {}

  void go() {
    const GameInfo& info = game_.info();
    const int seats = in_.ConsumeIntegralInRange<int>(info.min_seats, info.max_seats);
    json given = json::object();
    for (const OptionSpec& spec : info.options) {
      if (!in_.ConsumeBool()) continue;
      switch (spec.type) {
        case OptionSpec::Type::kBool:
          given[spec.key] = in_.ConsumeBool();
          break;
        case OptionSpec::Type::kInt:
          given[spec.key] = in_.ConsumeIntegralInRange<int>(spec.min, spec.max);
          break;
        case OptionSpec::Type::kChoice:
          given[spec.key] =
              spec.choices.at(in_.ConsumeIntegralInRange<std::size_t>(0, spec.choices.size() - 1));
          break;
      }
    }
    auto options = game_.parse_options(given, seats);
    // Some combinations are refused by design ("Dummy Tribe needs 2 or 3 players").
    if (!options) {
      CAMPFIRE_FUZZ_CHECK(options.error().code == "bad_options", "options %s refused with %s",
                          given.dump().c_str(), options.error().code.c_str());
      options = game_.parse_options(json::object(), seats);
      if (!options) return;
    }
    const std::uint64_t seed = in_.ConsumeIntegral<std::uint64_t>();
    auto made = game_.new_state(seats, *options, seed, nullptr);
    CAMPFIRE_FUZZ_CHECK(made.ok(), "new_state refused: %s", made.error().message.c_str());
    state_ = std::move(*made);
    deck_ = game_.deck(*options, seats);
    std::sort(deck_.begin(), deck_.end());
    check_state();

    for (int step = 0; step < kMaxSteps && in_.remaining_bytes() > 0 && !state_->over(); ++step) {
      switch (in_.ConsumeIntegralInRange<int>(0, 9)) {
        case 0:
        case 1:
        case 2:
        case 3:
        case 4:
          play_legal();
          break;
        case 5:
          send_raw_json();
          break;
        case 6:
        case 7:
          send_mutated_legal();
          break;
        case 8:
          close_window();
          break;
        case 9:
          play_fallback();
          break;
      }
    }
  }

 private:
  // Fuzz bytes as a string JSON text could carry (a parser never lets invalid UTF-8 through).
  std::string text(std::size_t max_length) {
    const std::string raw = in_.ConsumeRandomLengthString(max_length);
    return json::parse(json(raw).dump(-1, ' ', false, json::error_handler_t::replace))
        .get<std::string>();
  }

  Seat any_seat() {
    // Every seat, plus the spectator, the system and one past the last seat.
    return in_.ConsumeIntegralInRange<int>(kSystem, state_->seats());
  }

  // An acting seat, or nothing when only a window is open.
  std::optional<Seat> acting_seat() {
    const SeatSet acting = state_->to_act();
    if (acting.empty()) return std::nullopt;
    int k = in_.ConsumeIntegralInRange<int>(0, acting.size() - 1);
    Seat chosen = acting.first();
    acting.for_each([&](Seat s) {
      if (k-- == 0) chosen = s;
    });
    return chosen;
  }

  void play_legal() {
    auto seat = acting_seat();
    if (!seat) return close_window();
    const auto legal = state_->legal_actions(*seat);
    CAMPFIRE_FUZZ_CHECK(!legal.empty(), "seat %d must act but has no legal action", *seat);
    const Action& a = legal[in_.ConsumeIntegralInRange<std::size_t>(0, legal.size() - 1)];
    CAMPFIRE_FUZZ_CHECK(!state_->describe(*seat, a).empty(), "a legal action without words");
    apply_checked(*seat, a, true);
  }

  void play_fallback() {
    auto seat = acting_seat();
    if (!seat) return;
    apply_checked(*seat, state_->fallback_action(*seat), true);
  }

  void close_window() {
    const auto w = state_->window();
    const std::int32_t id = w && in_.ConsumeBool() ? w->id : in_.ConsumeIntegral<std::int32_t>();
    apply_checked(in_.ConsumeBool() ? kSystem : any_seat(), Action::timeout(id), false);
  }

  void send_raw_json() {
    const std::string text = in_.ConsumeRandomLengthString(512);
    const json j = json::parse(text, nullptr, false);
    if (j.is_discarded()) return;
    send_json(any_seat(), j);
  }

  void send_mutated_legal() {
    auto seat = acting_seat();
    if (!seat) return;
    const auto legal = state_->legal_actions(*seat);
    if (legal.empty()) return;
    json j =
        game_.action_to_json(legal[in_.ConsumeIntegralInRange<std::size_t>(0, legal.size() - 1)]);
    std::vector<std::string> keys;
    for (const auto& [key, value] : j.items()) keys.push_back(key);
    keys.push_back("extra");
    const std::string& key = keys[in_.ConsumeIntegralInRange<std::size_t>(0, keys.size() - 1)];
    switch (in_.ConsumeIntegralInRange<int>(0, 6)) {
      case 0:
        j.erase(key);
        break;
      case 1:
        j[key] = in_.ConsumeIntegral<std::int64_t>();
        break;
      case 2:
        j[key] = in_.ConsumeIntegralInRange<int>(-3, 60);
        break;
      case 3:
        j[key] = text(16);
        break;
      case 4:
        j[key] = in_.ConsumeBool();
        break;
      case 5:
        j[key] = json::array(
            {in_.ConsumeIntegralInRange<int>(-2, 60), in_.ConsumeIntegralInRange<int>(-2, 60)});
        break;
      case 6:
        j[key] = in_.ConsumeFloatingPoint<double>();
        break;
    }
    send_json(in_.ConsumeBool() ? *seat : any_seat(), j);
  }

  void send_json(Seat seat, const json& j) {
    auto a = game_.action_from_json(j);
    if (!a) {
      CAMPFIRE_FUZZ_CHECK(!a.error().code.empty() && !a.error().message.empty(),
                          "a refusal without code or words for %s", j.dump().c_str());
      return;
    }
    // A decoded action is canonical: it survives the round trip unchanged.
    auto back = game_.action_from_json(game_.action_to_json(*a));
    CAMPFIRE_FUZZ_CHECK(back.ok() && *back == *a, "%s does not round-trip", j.dump().c_str());
    apply_checked(seat, *a, false);
  }

  bool is_legal(const State& s, Seat seat, const Action& a) {
    if (a.is_timeout()) {
      const auto w = s.window();
      return seat == kSystem && w && w->id == a.arg(0);
    }
    if (seat < 0 || seat >= s.seats()) return false;
    const auto legal = s.legal_actions(seat);
    return std::find(legal.begin(), legal.end(), a) != legal.end();
  }

  void apply_checked(Seat seat, const Action& a, bool must_accept) {
    const auto before = state_->clone();
    const bool legal = is_legal(*before, seat, a);
    Events events;
    const auto err = state_->apply(seat, a, events);
    const std::string what = game_.action_to_json(a).dump();
    if (err) {
      CAMPFIRE_FUZZ_CHECK(!legal, "legal %s by seat %d refused: %s", what.c_str(), seat,
                          err->message.c_str());
      CAMPFIRE_FUZZ_CHECK(!must_accept, "%s by seat %d (a legal or fallback move) refused: %s",
                          what.c_str(), seat, err->message.c_str());
      CAMPFIRE_FUZZ_CHECK(!err->code.empty() && !err->message.empty(), "a wordless refusal");
      CAMPFIRE_FUZZ_CHECK(state_->equals(*before), "refused %s by seat %d changed the state",
                          what.c_str(), seat);
      CAMPFIRE_FUZZ_CHECK(events.list().empty(), "refused %s emitted events", what.c_str());
      return;
    }
    CAMPFIRE_FUZZ_CHECK(legal, "%s by seat %d was accepted but is not legal", what.c_str(), seat);
    CAMPFIRE_FUZZ_CHECK(!state_->equals(*before) || a.is_timeout(), "accepted %s changed nothing",
                        what.c_str());
    for (const Event& e : events.list()) {
      CAMPFIRE_FUZZ_CHECK(e.body.contains("type") && e.body.contains("text"),
                          "event without type or text: %s", e.body.dump().c_str());
      (void)e.body.dump();  // throws on invalid UTF-8
    }
    check_state();
  }

  void check_state() {
    const State& s = *state_;
    const SeatSet acting = s.to_act();
    if (s.over()) {
      CAMPFIRE_FUZZ_CHECK(acting.empty() && !s.window(), "a finished game still runs");
      const Result r = s.result();
      CAMPFIRE_FUZZ_CHECK(static_cast<int>(r.places.size()) == s.seats(), "places per seat");
      (void)r.to_json().dump();
    } else {
      CAMPFIRE_FUZZ_CHECK(!acting.empty() || s.window(), "nobody can act and no window is open");
    }
    for (Seat seat = 0; seat < s.seats(); ++seat) {
      CAMPFIRE_FUZZ_CHECK(s.legal_actions(seat).empty() != acting.contains(seat),
                          "seat %d: legal actions disagree with to_act", seat);
    }
    CAMPFIRE_FUZZ_CHECK(sorted_cards(s) == deck_, "cards are not conserved");
    // One viewer's view a step, in turn (every view every step would halve the executions).
    const Seat viewer = kSpectator + static_cast<Seat>(checks_++ % (s.seats() + 1));
    (void)s.view(viewer).dump();
    auto copy = s.clone();
    CAMPFIRE_FUZZ_CHECK(copy->equals(s), "a clone differs from its original");
  }

  const Game& game_;
  FuzzedDataProvider& in_;
  std::unique_ptr<State> state_;
  std::vector<Card> deck_;
  unsigned checks_ = 0;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const Game* game = Registry::builtin().find(CAMPFIRE_FUZZ_GAME);
  CAMPFIRE_FUZZ_CHECK(game != nullptr, "no game %s", CAMPFIRE_FUZZ_GAME);
  FuzzedDataProvider in(data, size);
  Run(*game, in).go();
  return 0;
}
