// Cluster nodes for real, for the node tests: campfire-server child processes on a real
// redis-server, and a player that plays its first legal action and keeps what was acknowledged.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "clients/common/connection.hpp"
#include "tests/cluster/redis_fixture.hpp"
#include "tests/server/server_fixture.hpp"
#include "tests/support/child_server.hpp"

namespace campfire::server::testing {

using client::Connection;
using json = nlohmann::json;
using namespace std::chrono_literals;

inline constexpr int kLeaseMs = 2000;

// One campfire-server child process; its output goes to a log file in `dir`.
class NodeProcess : public test::ChildServer {
 public:
  NodeProcess(const std::filesystem::path& dir, const std::vector<std::string>& extra)
      : ChildServer(CAMPFIRE_SERVER_BINARY, args(dir, extra),
                    (dir / ("node-" + std::to_string(counter_++) + ".log")).string()) {}

 private:
  static std::vector<std::string> args(const std::filesystem::path& dir,
                                       const std::vector<std::string>& extra) {
    std::vector<std::string> all = {"--bind",      "127.0.0.1",      "--data-dir", dir.string(),
                                    "--test-mode", "--bot-delay-ms", "30",         "--rate",
                                    "5000",        "--burst",        "10000",      "--log-level",
                                    "info"};
    all.insert(all.end(), extra.begin(), extra.end());
    return all;
  }
  static inline int counter_ = 0;
};

inline std::vector<std::string> node_flags(const RedisServer& redis, const std::string& id,
                                           std::uint16_t port) {
  return {"--port",
          std::to_string(port),
          "--cluster",
          redis.url(),
          "--node-id",
          id,
          "--cluster-lease-ms",
          std::to_string(kLeaseMs)};
}

inline std::unique_ptr<Connection> greet(std::uint16_t port, const std::string& name,
                                         const std::string& updates = "state",
                                         bool texts = true) {
  auto c = std::make_unique<Connection>("127.0.0.1", port);
  const auto w = c->request({{"type", "hello"},
                             {"protocol", 1},
                             {"name", name},
                             {"updates", updates},
                             {"texts", texts}});
  if (!w || w->value("type", "") != "welcome") throw std::runtime_error("no welcome");
  return c;
}

// A player of a cluster room; it plays its first legal action and keeps what was acknowledged.
struct ClusterPlayer {
  std::unique_ptr<Connection> conn;
  std::string code;
  std::string token;
  int seat = -1;
  std::int64_t next_id = 100;
  std::map<std::int64_t, json> pending;
  std::vector<std::pair<long long, json>> acked;  // (log index, action) answered "ok"
  long long max_version = 0;
  long long max_moves = 0;
  bool over = false;
  bool went_back = false;  // a state came with a lower version than one before it
  std::vector<json> notices;

  // The next state message (after a rejoin), skipping anything else; none if it does not come.
  std::optional<json> next_state() {
    for (int i = 0; i < 50; ++i) {
      auto m = conn->receive(2s);
      if (!m) return std::nullopt;
      if (m->value("type", "") == "state") return *m;
    }
    return std::nullopt;
  }

  void on_message(const json& m) {
    const std::string type = m.value("type", "");
    if (m.contains("id") && m["id"].is_number_integer()) {
      auto it = pending.find(m["id"].get<std::int64_t>());
      if (it != pending.end()) {
        if (type == "ok") acked.emplace_back(m.at("move").get<long long>(), it->second);
        pending.erase(it);
      }
    }
    if (type == "notice") notices.push_back(m);
    if (type != "state") return;
    if (m.value("version", 0LL) < max_version) went_back = true;
    max_version = std::max(max_version, m.value("version", 0LL));
    max_moves = std::max(max_moves, m.value("moves", 0LL));
    if (m.value("status", "") == "over") over = true;
    const json& legal = m["legal"];
    if (over || !pending.empty() || !legal.is_array() || legal.empty()) return;
    const std::int64_t id = next_id++;
    pending[id] = legal[0];
    conn->send({{"type", "action"}, {"id", id}, {"room", code}, {"action", legal[0]}});
  }
  // Plays until `enough` holds or `span` has passed.
  template <class Enough>
  void play(std::chrono::milliseconds span, Enough enough) {
    const auto until = std::chrono::steady_clock::now() + span;
    while (std::chrono::steady_clock::now() < until && !enough() && conn->open()) {
      if (auto m = conn->receive(20ms)) on_message(*m);
    }
  }
};

// The node owning a room as the cluster's Redis has it (empty when none).
inline std::string owner_of(const RedisServer& redis, const std::string& code) {
  const std::string owner = redis.command({"HGET", "campfire:room:" + code, "owner"});
  const auto slash = owner.rfind('/');
  return slash == std::string::npos ? std::string() : owner.substr(0, slash);
}

// Which of `live` surviving nodes (sorted by id) claims a dead node's room first: the directory
// spreads rooms over the live nodes by the FNV-1a hash of their code
// (server/cluster/directory.cpp); the others wait a moment before claiming it.
inline std::size_t share_of(const std::string& code, std::size_t live) {
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char c : code) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return static_cast<std::size_t>(h % live);
}

}  // namespace campfire::server::testing
