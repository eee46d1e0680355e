// Expert bots search on the server's bot pool, never on a room's thread: while one searches, its
// own room and every other room go on answering chat and moves.
#include <cstdlib>

#include "tests/server/server_fixture.hpp"

namespace campfire::server::testing {
namespace {

// The value of an unlabelled gauge or counter in /metrics, or -1 when it is not there.
long long metric(std::uint16_t port, const std::string& name) {
  const auto [status, body] = http_get(port, "/metrics");
  if (status != 200) return -1;
  const std::string prefix = "\n" + name + " ";
  const auto at = body.find(prefix);
  if (at == std::string::npos) return -1;
  return std::atoll(body.c_str() + at + prefix.size());
}

class BotSearch : public ServerTest {
 protected:
  void SetUp() override {
    Config c = test_config();
    // One thread serves every connection and room: a search on it would stop them all. The
    // search budget is far longer than the test, so the search is surely still running when
    // the other requests are answered; stopping the server ends it.
    c.threads = 1;
    c.bot_threads = 1;
    c.bot_think_ms = 600000;
    start_server(c);
  }

  json act(Player& p, const json& action) {
    return p.request({{"type", "action"}, {"room", p.room}, {"action", action}});
  }

  // Plays `p`'s moves (the first legal one each time) until a bot of its room is searching.
  void play_until_a_bot_searches(Player& p) {
    for (int i = 0; i < 400; ++i) {
      if (metric(port_, "campfire_bot_searches") == 1) return;
      auto m = p.conn->receive(std::chrono::milliseconds(50));
      if (!m) continue;
      ASSERT_NE((*m)["type"], "game_over") << "no bot searched during the whole game";
      if ((*m)["type"] == "state" && !(*m)["legal"].empty()) {
        ASSERT_EQ(act(p, (*m)["legal"][0])["type"], "ok");
      }
    }
    FAIL() << "no bot began a search";
  }
};

TEST_F(BotSearch, RoomsAnswerWhileAnExpertSearches) {
  // Room A: a player and three expert bots.
  Player ada = player("Ada");
  create(ada, {{"game", "pinocchio"}, {"seats", 4}});
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(
        ada.request({{"type", "add_bot"}, {"room", ada.room}, {"strategy", "expert"}})["type"],
        "ok");
  }
  ASSERT_EQ(ada.request({{"type", "start"}, {"room", ada.room}})["type"], "ok");
  play_until_a_bot_searches(ada);
  if (HasFatalFailure()) return;
  const json before = ada.request({{"type", "sync"}, {"room", ada.room}});
  ASSERT_EQ(before["type"], "ok");

  // Room B: a player and random bots, created and played while the expert searches.
  Player bo = player("Bo");
  create(bo, {{"game", "pinocchio"}, {"seats", 3}});
  for (int i = 0; i < 2; ++i) {
    ASSERT_EQ(bo.request({{"type", "add_bot"}, {"room", bo.room}})["type"], "ok");
  }
  ASSERT_EQ(bo.request({{"type", "start"}, {"room", bo.room}})["type"], "ok");
  EXPECT_EQ(bo.request({{"type", "chat"}, {"room", bo.room}, {"text", "anyone there?"}})["type"],
            "ok");
  const json turn =
      bo.wait_for([](const json& m) { return m["type"] == "state" && !m["legal"].empty(); });
  ASSERT_FALSE(turn.is_null());
  EXPECT_EQ(act(bo, turn["legal"][0])["type"], "ok");
  // The searching bot's own room answers too: its player's chat is relayed and acknowledged.
  EXPECT_EQ(ada.request({{"type", "chat"}, {"room", ada.room}, {"text", "take your time"}})["type"],
            "ok");
  const json said = ada.wait_for([](const json& m) { return m["type"] == "chat"; });
  EXPECT_EQ(said.value("text", ""), "take your time");

  // All of that was answered while the search was still running: it has not ended, and room A
  // has not changed since it began (Pinocchio has no timed windows).
  EXPECT_EQ(metric(port_, "campfire_bot_searches"), 1);
  const json after = ada.request({{"type", "sync"}, {"room", ada.room}});
  EXPECT_EQ(after["version"], before["version"]);
  // Stopping the server ends the search at once (the test would otherwise wait ten minutes).
}

}  // namespace
}  // namespace campfire::server::testing
