// Helpers shared by the engine tests.
#pragma once

#include <cstdlib>
#include <optional>
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

// The first place where an object in the JSON text does not list its members in strictly rising
// byte order of their names (the order of the tree's dump(), which also rules out a name given
// twice): the two names and the object's depth. Empty when every object is in order.
inline std::string member_order_fault(const std::string& text) {
  std::vector<std::optional<std::string>> last;  // per open object, its latest member name
  std::string fault;
  const json::parser_callback_t check = [&](int, json::parse_event_t event, json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start:
        last.emplace_back();
        break;
      case json::parse_event_t::object_end:
        last.pop_back();
        break;
      case json::parse_event_t::key: {
        const std::string name = parsed.get<std::string>();
        if (fault.empty() && last.back() && name <= *last.back()) {
          fault = "member \"" + name + "\" comes after \"" + *last.back() +
                  "\" in an object at depth " + std::to_string(last.size());
        }
        last.back() = name;
        break;
      }
      default:
        break;
    }
    return true;
  };
  const json parsed = json::parse(text, check);
  if (parsed.is_discarded() && fault.empty()) fault = "the text is not one JSON document";
  return fault;
}

}  // namespace campfire::testing
