// A real server on an ephemeral loopback port, and players that talk to it over WebSockets.
#pragma once

#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
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

// A TCP connection to the server on loopback: its descriptor, or -1.
inline int connect_loopback(std::uint16_t port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// A plain HTTP/1.1 GET over a raw socket: returns the status code and the body.
inline std::pair<int, std::string> http_get(std::uint16_t port, const std::string& path) {
  const int fd = connect_loopback(port);
  if (fd < 0) return {0, ""};
  const std::string req = "GET " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";
  ::send(fd, req.data(), req.size(), 0);
  std::string resp;
  char buf[4096];
  for (ssize_t n; (n = ::recv(fd, buf, sizeof buf, 0)) > 0;) resp.append(buf, static_cast<std::size_t>(n));
  ::close(fd);
  if (resp.size() < 12) return {0, ""};
  const int status = std::atoi(resp.c_str() + 9);
  const auto split = resp.find("\r\n\r\n");
  return {status, split == std::string::npos ? "" : resp.substr(split + 4)};
}

// A fresh directory for one server's journal, removed by the fixture afterwards.
inline std::string fresh_data_dir() {
  static std::atomic<int> counter{0};
  const auto dir = std::filesystem::temp_directory_path() /
                   ("campfire-test-" + std::to_string(::getpid()) + "-" +
                    std::to_string(counter.fetch_add(1)));
  std::filesystem::remove_all(dir);
  return dir.string();
}

inline Config test_config() {
  Config c;
  c.data_dir = fresh_data_dir();
  c.bind = "127.0.0.1";
  c.port = 0;
  c.threads = 2;
  c.test_mode = true;
  c.bot_delay_ms = 0;
  // Test clients play as fast as the loopback allows; the flood test sets the real limits.
  c.messages_per_second = 2000;
  c.message_burst = 4000;
  c.web_root = CAMPFIRE_SOURCE_DIR "/clients/web";
  // Hundreds of servers start on fresh directories here: none writes its WAL out ahead (the
  // journal and crash tests cover that).
  c.journal_wal_mb = 0;
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
  void TearDown() override {
    server_.reset();
    if (!config_.data_dir.empty()) std::filesystem::remove_all(config_.data_dir);
  }

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
