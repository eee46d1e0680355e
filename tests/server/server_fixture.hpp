// A real server on an ephemeral loopback port, and players that talk to it over WebSockets.
#pragma once

#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "clients/common/connection.hpp"
#include "server/server.hpp"

namespace campfire::server::testing {

using client::Connection;
using json = nlohmann::json;
using namespace std::chrono_literals;

inline Config test_config() {
  Config c;
  c.bind = "127.0.0.1";
  c.port = 0;
  c.threads = 2;
  c.test_mode = true;
  c.bot_delay_ms = 0;
  // Test clients play as fast as the loopback allows; the flood test sets the real limits.
  c.messages_per_second = 2000;
  c.message_burst = 4000;
  c.web_root = CAMPFIRE_SOURCE_DIR "/clients/web";
  return c;
}

// A connected, greeted player with everything it has received kept in order.
struct Player {
  std::unique_ptr<Connection> conn;
  std::string name;
  std::string room;
  int seat = -1;
  std::string token;

  // Reads until `pred` accepts a message (which is returned); fails the test on timeout.
  json wait_for(const std::function<bool(const json&)>& pred,
                std::chrono::milliseconds timeout = 5s) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < deadline) {
      auto m = conn->receive(std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now()));
      if (!m) break;
      if (pred(*m)) return *m;
    }
    ADD_FAILURE() << name << ": the expected message did not arrive";
    return json();
  }
  json wait_type(const std::string& type, std::chrono::milliseconds timeout = 5s) {
    return wait_for([&](const json& m) { return m.value("type", "") == type; }, timeout);
  }
  json request(json m) {
    auto r = conn->request(std::move(m));
    EXPECT_TRUE(r.has_value()) << name << ": no reply";
    return r.value_or(json());
  }
};

class ServerTest : public ::testing::Test {
 protected:
  void SetUp() override { start_server(test_config()); }
  void TearDown() override { server_.reset(); }

  void start_server(Config c) {
    spdlog::set_level(spdlog::level::warn);
    config_ = std::move(c);
    server_.reset();
    server_ = std::make_unique<Server>(config_);
    port_ = server_->start();
  }

  std::unique_ptr<Connection> connect() {
    return std::make_unique<Connection>("127.0.0.1", port_);
  }

  Player player(const std::string& name) {
    Player p;
    p.name = name;
    p.conn = connect();
    const json w = p.request({{"type", "hello"}, {"protocol", 1}, {"name", name}});
    EXPECT_EQ(w.value("type", ""), "welcome") << w.dump();
    return p;
  }

  // Creates a room with the creator in seat 0.
  void create(Player& p, const json& request) {
    json r = request;
    r["type"] = "create_room";
    const json j = p.request(r);
    ASSERT_EQ(j.value("type", ""), "joined") << j.dump();
    p.room = j["room"];
    p.seat = j["seat"];
    p.token = j["token"];
  }

  void join(Player& p, const std::string& room) {
    const json j = p.request({{"type", "join"}, {"room", room}});
    ASSERT_EQ(j.value("type", ""), "joined") << j.dump();
    p.room = room;
    p.seat = j["seat"];
    p.token = j["token"];
  }

  Config config_;
  std::unique_ptr<Server> server_;
  std::uint16_t port_ = 0;
};

}  // namespace campfire::server::testing
