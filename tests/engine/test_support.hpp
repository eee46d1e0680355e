// Helpers shared by the engine tests.
#pragma once

#include <cstdlib>
#include <optional>
#include <set>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "engine/core/match.hpp"

namespace campfire::testing {

// CAMPFIRE_TEST_SCALE multiplies playout counts (the sanitizer run uses a fraction, long runs
// more); never below one playout.
inline double test_scale() {
  const char* s = std::getenv("CAMPFIRE_TEST_SCALE");
  return s ? std::atof(s) : 1.0;
}
inline int scaled(int n) {
  const int v = static_cast<int>(n * test_scale());
  return v < 1 ? 1 : v;
}

// What a viewer can observe: its view, its legal actions, who acts, whether the game is over and
// the open window.
inline std::string observation(const Game& game, const State& s, Seat viewer) {
  json o = {{"view", s.view(viewer)}};
  json legal = json::array();
  if (viewer >= 0) {
    for (const Action& a : s.legal_actions(viewer)) legal.push_back(game.action_to_json(a));
  }
  o["legal"] = std::move(legal);
  o["toAct"] = s.to_act().bits();
  o["over"] = s.over();
  if (auto w = s.window()) o["window"] = {w->id, w->millis, w->name, w->seats.bits()};
  return o.dump();
}

// The next input of a random playout: the open window's timeout (always when nobody may act,
// otherwise one time in four), else a random legal action of a random acting seat. Nothing, and
// a failed test, when nobody may act and no window is open or an acting seat has no action.
inline std::optional<std::pair<Seat, Action>> random_input(const State& s, Rng& rng) {
  const SeatSet acting = s.to_act();
  const auto w = s.window();
  if (w && (acting.empty() || rng.below(4) == 0)) {
    return std::pair<Seat, Action>(kSystem, Action::timeout(w->id));
  }
  if (acting.empty()) {
    ADD_FAILURE() << "nobody may act and no window is open";
    return std::nullopt;
  }
  std::vector<Seat> seats;
  acting.for_each([&](Seat x) { seats.push_back(x); });
  const Seat seat = seats[rng.below(seats.size())];
  const auto legal = s.legal_actions(seat);
  if (legal.empty()) {
    ADD_FAILURE() << "seat " << seat << " may act but has no legal action";
    return std::nullopt;
  }
  return std::pair<Seat, Action>(seat, legal[rng.below(legal.size())]);
}

// One step of a random playout (random_input) applied to a Match, or to a bare State such as a
// determinized copy. Returns the seat (kSystem for a timeout) and the action applied; nothing,
// and a failed test, when there was none or it was refused.
template <class Target>
std::optional<std::pair<Seat, Action>> random_step(Target& target, Rng& rng) {
  std::optional<std::pair<Seat, Action>> input;
  if constexpr (std::is_base_of_v<State, Target>) {
    input = random_input(target, rng);
  } else {
    input = random_input(target.state(), rng);
  }
  if (!input) return std::nullopt;
  Events ev(false);
  if (auto err = target.apply(input->first, input->second, ev)) {
    ADD_FAILURE() << "a legal action of seat " << input->first << " was refused: " << err->code
                  << ": " << err->message;
    return std::nullopt;
  }
  return input;
}

// Applies a move given as JSON, failing the test on refusal.
inline void play(Match& m, Seat seat, const json& action) {
  auto a = m.game().action_from_json(action);
  ASSERT_TRUE(a.ok()) << a.error().message;
  Events ev;
  auto err = m.apply(seat, *a, ev);
  ASSERT_FALSE(err.has_value()) << action.dump() << " by seat " << seat << ": " << err->code
                                << ": " << err->message;
}

// The refusal code of a move given as JSON ("" when it was accepted).
inline std::string refusal(Match& m, Seat seat, const json& action) {
  auto a = m.game().action_from_json(action);
  if (!a.ok()) return a.error().code;
  Events ev;
  auto err = m.apply(seat, *a, ev);
  return err ? err->code : "";
}

// True when some object in the JSON text names a member twice (a tree would keep only one).
inline bool names_a_member_twice(const std::string& text) {
  std::vector<std::set<std::string>> open;
  bool twice = false;
  const json::parser_callback_t check = [&](int, json::parse_event_t event, json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start:
        open.emplace_back();
        break;
      case json::parse_event_t::object_end:
        open.pop_back();
        break;
      case json::parse_event_t::key:
        twice |= !open.back().insert(parsed.get<std::string>()).second;
        break;
      default:
        break;
    }
    return true;
  };
  const json parsed = json::parse(text, check);
  return twice || parsed.is_discarded();
}

}  // namespace campfire::testing
