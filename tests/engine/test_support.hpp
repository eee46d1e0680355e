// Helpers shared by the engine tests.
#pragma once

#include <cstdlib>
#include <string>

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

}  // namespace campfire::testing
