// The blocking connection the clients are built on.
#include <thread>

#include "clients/common/connection.hpp"
#include "tests/clients/client_test_support.hpp"

namespace campfire::test {
namespace {

using ConnectionTest = ClientTest;

// The terminal client polls with short timeouts; a timeout must not cost the connection.
TEST_F(ConnectionTest, ReceiveTimeoutKeepsTheConnectionUsable) {
  client::Connection c("127.0.0.1", port_);
  for (int i = 0; i < 3; ++i) {
    EXPECT_FALSE(c.receive(20ms));
    EXPECT_TRUE(c.open());
  }
  const auto welcome = c.request({{"type", "hello"}, {"protocol", 1}, {"name", "Poller"}});
  ASSERT_TRUE(welcome);
  EXPECT_EQ((*welcome)["type"], "welcome");
  EXPECT_FALSE(c.receive(20ms));
  c.send({{"type", "ping"}, {"id", 99}});
  const auto pong = c.receive(5s);
  ASSERT_TRUE(pong);
  EXPECT_EQ((*pong)["type"], "pong");
  c.close();
  EXPECT_FALSE(c.open());
}

TEST_F(ConnectionTest, AbortLooksLikeADroppedNetwork) {
  client::Connection c("127.0.0.1", port_);
  ASSERT_TRUE(c.request({{"type", "hello"}, {"protocol", 1}, {"name", "Dropper"}}));
  EXPECT_FALSE(c.receive(20ms));
  c.abort();
  EXPECT_FALSE(c.open());
  EXPECT_FALSE(c.receive(20ms));
}

TEST_F(ConnectionTest, ServerShutdownEndsTheConnection) {
  client::Connection c("127.0.0.1", port_);
  ASSERT_TRUE(c.request({{"type", "hello"}, {"protocol", 1}, {"name", "Stayer"}}));
  // Stopping waits for the clients' closing handshakes, so this client keeps reading meanwhile.
  std::thread stopper([&] { server_->stop(); });
  const auto deadline = std::chrono::steady_clock::now() + 10s;
  while (c.open() && std::chrono::steady_clock::now() < deadline) c.receive(100ms);
  stopper.join();
  EXPECT_FALSE(c.open());
}

}  // namespace
}  // namespace campfire::test
