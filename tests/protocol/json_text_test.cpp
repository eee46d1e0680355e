// The fast serialiser writes exactly what nlohmann's dump writes, for hand-picked awkward values
// and for every view, legal list and event of random games of every registered game.
#include <gtest/gtest.h>

#include <limits>

#include "engine/core/match.hpp"
#include "engine/core/registry.hpp"
#include "protocol/json_text.hpp"

namespace campfire::protocol {
namespace {

std::string reference(const json& j) {
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

TEST(JsonText, MatchesNlohmannOnAwkwardValues) {
  const std::vector<json> values = {
      nullptr,
      true,
      false,
      0,
      -1,
      std::numeric_limits<std::int64_t>::min(),
      std::numeric_limits<std::int64_t>::max(),
      std::numeric_limits<std::uint64_t>::max(),
      1.5,
      -0.0,
      1e300,
      3.0,
      "",
      "plain text",
      "quote \" and backslash \\ and slash /",
      "tab\tnewline\ncarriage\rbell\x07 nul-free control \x1f",
      "caf\xc3\xa9 \xe2\x99\xa5 \xf0\x9f\x83\x8f",
      "broken \xff\xfe utf-8 \xc3",
      "del \x7f",
      json::array(),
      json::object(),
      json::array({1, "two", nullptr, json::array({json::object()})}),
      json{{"b", 1}, {"a", json{{"z\"", "\x01"}, {"", nullptr}}}, {"\xc3\xa9", -2.25}},
      json::binary({1, 2, 3}),
  };
  for (const json& v : values) {
    EXPECT_EQ(json_text(v), reference(v)) << reference(v);
    std::string appended = "prefix";
    append_json(v, appended);
    EXPECT_EQ(appended, "prefix" + reference(v));
  }
}

TEST(JsonText, MatchesNlohmannOnEveryGamesViewsAndEvents) {
  for (const Game* g : Registry::builtin().games()) {
    const int seats = std::min(std::max(3, g->info().min_seats), g->info().max_seats);
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      Match m = std::move(*Match::create(*g, seats, json::object(), seed));
      Rng rng(seed);
      int steps = 0;
      while (!m.state().over() && steps++ < g->info().max_actions) {
        for (Seat s = kSpectator; s < seats; ++s) {
          const json view = m.state().view(s);
          ASSERT_EQ(json_text(view), reference(view)) << g->info().id;
        }
        Events events;
        const SeatSet acting = m.state().to_act();
        const auto window = m.state().window();
        if (acting.empty() || (window && rng.below(3) == 0)) {
          if (!window) break;
          ASSERT_FALSE(m.apply(kSystem, Action::timeout(window->id), events).has_value());
        } else {
          const Seat s = acting.first();
          const auto legal = m.state().legal_actions(s);
          json legal_json = json::array();
          for (const Action& a : legal) legal_json.push_back(g->action_to_json(a));
          ASSERT_EQ(json_text(legal_json), reference(legal_json));
          ASSERT_FALSE(m.apply(s, legal[rng.below(legal.size())], events).has_value());
        }
        for (const Event& e : events.list()) ASSERT_EQ(json_text(e.body), reference(e.body));
      }
    }
  }
}

}  // namespace
}  // namespace campfire::protocol
