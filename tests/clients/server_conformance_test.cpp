// Places where the clients found the server departing from protocol/PROTOCOL.md. Each test quotes
// the sentence of the page it checks.
#include "clients/common/connection.hpp"
#include "clients/common/pacer.hpp"
#include "tests/clients/client_test_support.hpp"

namespace campfire::test {
namespace {

using ServerConformance = ClientTest;

std::optional<json> next_of_type(client::Connection& c, const std::string& type) {
  for (;;) {
    auto m = c.receive(5s);
    if (!m || (*m)["type"] == type) return m;
  }
}

// "When the game is over `status` is `over` and `result` is present" and `game_over` is "sent
// once to every member when the game ends, after the final `state`".
TEST_F(ServerConformance, FinalStateSaysOverWithTheResult) {
  client::Connection c("127.0.0.1", port_);
  ASSERT_TRUE(c.request({{"type", "hello"}, {"protocol", 1}, {"name", "Andrea"}}));
  const auto joined =
      c.request({{"type", "create_room"}, {"game", "pinocchio"}, {"seats", 2}, {"seed", 1}});
  ASSERT_TRUE(joined && (*joined)["type"] == "joined");
  const std::string room = (*joined)["room"];
  ASSERT_EQ(c.request({{"type", "add_bot"}, {"room", room}})->value("type", ""), "ok");
  ASSERT_EQ(c.request({{"type", "start"}, {"room", room}})->value("type", ""), "ok");
  json last_state;
  long long acted = -1;
  client::Pacer pacer;  // a two-seat game against a bot that does not think outruns the limit
  for (;;) {
    const auto m = c.receive(5s);
    ASSERT_TRUE(m) << "the game did not end";
    if ((*m)["type"] == "game_over") break;
    if ((*m)["type"] != "state") continue;
    last_state = *m;
    if (!(*m)["legal"].empty() && (*m)["version"] > acted) {
      acted = (*m)["version"];
      pacer.wait();
      c.send({{"type", "action"}, {"room", room}, {"action", (*m)["legal"][0]}});
    }
  }
  EXPECT_EQ(last_state["status"], "over") << last_state.dump();
  EXPECT_TRUE(last_state.contains("result")) << last_state.dump();
}

// "The request changed nothing" after an `error`: a join refused elsewhere must not take the
// player out of the room they are in.
TEST_F(ServerConformance, RefusedJoinElsewhereKeepsYourSeat) {
  client::Connection a("127.0.0.1", port_);
  ASSERT_TRUE(a.request({{"type", "hello"}, {"protocol", 1}, {"name", "Andrea"}}));
  const auto mine = a.request({{"type", "create_room"}, {"game", "pinocchio"}, {"seats", 2}});
  ASSERT_TRUE(mine && (*mine)["type"] == "joined");
  const std::string my_room = (*mine)["room"];

  client::Connection b("127.0.0.1", port_);
  ASSERT_TRUE(b.request({{"type", "hello"}, {"protocol", 1}, {"name", "Bella"}}));
  const auto other = b.request({{"type", "create_room"}, {"game", "pinocchio"}, {"seats", 2}});
  ASSERT_TRUE(other && (*other)["type"] == "joined");
  const std::string full_room = (*other)["room"];
  ASSERT_EQ(b.request({{"type", "add_bot"}, {"room", full_room}})->value("type", ""), "ok");

  const auto refused = a.request({{"type", "join"}, {"room", full_room}});
  ASSERT_TRUE(refused);
  EXPECT_EQ((*refused)["type"], "error");
  EXPECT_EQ((*refused)["code"], "room_full");
  const auto synced = a.request({{"type", "sync"}, {"room", my_room}});
  ASSERT_TRUE(synced);
  EXPECT_NE((*synced)["type"], "error") << synced->dump();
  const auto state = next_of_type(a, "state");
  ASSERT_TRUE(state);
  EXPECT_EQ((*state)["seat"], 0) << state->dump();
  EXPECT_EQ((*state)["players"][0]["name"], "Andrea") << state->dump();
}

// Server::stop() gives connections two seconds to close; one that does not answer (here a client
// that is not reading) must not turn the server's destruction into a crash (a session once
// outlived the ServerContext it unregisters from). The client then finds its connection closed,
// and nothing listens on the port any more.
TEST_F(ServerConformance, StopWithAClientThatDoesNotAnswerClosesItsConnection) {
  client::Connection c("127.0.0.1", port_);
  ASSERT_TRUE(c.request({{"type", "hello"}, {"protocol", 1}, {"name", "Sleeper"}}));
  server_->stop();
  server_.reset();
  int left = 100;  // what the server sent before stopping, then the end of the connection
  while (c.receive(5s) && --left > 0) {
  }
  EXPECT_FALSE(c.open());
  EXPECT_THROW(client::Connection("127.0.0.1", port_), std::exception);
}

}  // namespace
}  // namespace campfire::test
