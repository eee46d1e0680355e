// campfire-bot's adapter: a state message becomes the Decision the bots library takes, with the
// same legal actions the engine lists, and refuses what it cannot play.
#include <gtest/gtest.h>

#include "clients/bot/json_adapter.hpp"
#include "engine/core/match.hpp"

namespace campfire::bot {
namespace {

// A state message as the server writes one for `seat` (the fields the adapter reads).
json state_message(const Match& m, Seat seat) {
  json legal = json::array();
  json labels = json::array();
  for (const Action& a : m.state().legal_actions(seat)) {
    legal.push_back(m.game().action_to_json(a));
    labels.push_back(m.state().describe(seat, a));
  }
  return {
      {"type", "state"},  {"game", m.game().info().id},   {"seat", seat},        {"legal", legal},
      {"labels", labels}, {"view", m.state().view(seat)}, {"status", "playing"}, {"version", 3}};
}

TEST(JsonAdapter, AStateBecomesTheEnginesDecision) {
  for (const Game* g : Registry::builtin().games()) {
    SCOPED_TRACE(g->info().id);
    Match m = std::move(*Match::create(*g, g->info().min_seats, json::object(), 8));
    const Seat seat = m.state().to_act().first();
    const json state = state_message(m, seat);
    auto choice = StateChoice::read(state, Registry::builtin());
    ASSERT_TRUE(choice.ok()) << choice.error().message;
    EXPECT_EQ(&choice->game(), g);
    EXPECT_EQ(choice->seat(), seat);
    EXPECT_EQ(choice->legal(), m.state().legal_actions(seat));
    const bots::Decision d = choice->decision();
    ASSERT_EQ(d.legal().size(), state["legal"].size());
    for (std::size_t i = 0; i < d.legal().size(); ++i) {
      EXPECT_EQ(g->action_to_json(d.legal()[i]), state["legal"][i]) << "entry " << i;
      EXPECT_EQ(d.label(i), state["labels"][i]);
    }
    EXPECT_EQ(d.view(), m.state().view(seat));
  }
}

TEST(JsonAdapter, RefusesWhatItCannotPlay) {
  const Game& g = *Registry::builtin().find("pinocchio");
  Match m = std::move(*Match::create(g, 3, json::object(), 8));
  const json good = state_message(m, m.state().to_act().first());
  auto changed = [&](const char* key, json value) {
    json s = good;
    if (value.is_discarded()) {
      s.erase(key);
    } else {
      s[key] = std::move(value);
    }
    return StateChoice::read(s, Registry::builtin());
  };
  for (auto r : {changed("game", "chess"), changed("game", json(json::value_t::discarded)),
                 changed("seat", nullptr), changed("legal", json::object()),
                 changed("legal", json::array({{{"move", "teleport"}}}))}) {
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, "bad_state");
    EXPECT_FALSE(r.error().message.empty());
  }
}

TEST(JsonAdapter, AnEventIsObservedByItsSeat) {
  const json message = {{"type", "event"},
                        {"room", "ABCDEF"},
                        {"version", 4},
                        {"event", {{"type", "played"}, {"text", "you played Blue Shoes"}}}};
  const Event e = observed_event(message, 2);
  EXPECT_TRUE(e.to.includes(2));
  EXPECT_FALSE(e.to.includes(1));
  EXPECT_EQ(e.body["type"], "played");
}

}  // namespace
}  // namespace campfire::bot
