// Cluster nodes for real, for the node tests: campfire-server child processes on a real
// redis-server, and a player that plays its first legal action and keeps what was acknowledged.
#pragma once

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

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

extern char** environ;

namespace campfire::server::testing {

using client::Connection;
using json = nlohmann::json;
using namespace std::chrono_literals;

inline constexpr int kLeaseMs = 2000;

// One campfire-server child process; its output goes to a log file in `dir`.
class NodeProcess {
 public:
  NodeProcess(const std::filesystem::path& dir, std::vector<std::string> extra)
      : log_((dir / ("node-" + std::to_string(counter_++) + ".log")).string()) {
    std::vector<std::string> args = {
        CAMPFIRE_SERVER_BINARY, "--bind", "127.0.0.1", "--data-dir", dir.string(), "--test-mode",
        "--bot-delay-ms",       "30",     "--rate",    "5000",       "--burst",    "10000",
        "--log-level",          "info"};
    args.insert(args.end(), extra.begin(), extra.end());
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, log_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    const int rc = posix_spawn(&pid_, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) throw std::runtime_error("cannot start " + args[0]);
  }
  ~NodeProcess() {
    if (pid_ > 0) kill_now();
  }

  // Waits until the node answers on `port`.
  bool ready(std::uint16_t port) {
    const auto deadline = std::chrono::steady_clock::now() + 30s;
    while (std::chrono::steady_clock::now() < deadline) {
      if (exited()) return false;
      try {
        Connection probe("127.0.0.1", port);
        return true;
      } catch (const std::exception&) {
        std::this_thread::sleep_for(50ms);
      }
    }
    return false;
  }
  // Waits for the process to end by itself; its exit status, or -1.
  int wait_exit(std::chrono::seconds patience) {
    const auto deadline = std::chrono::steady_clock::now() + patience;
    while (std::chrono::steady_clock::now() < deadline) {
      if (exited()) return status_;
      std::this_thread::sleep_for(20ms);
    }
    kill_now();
    return -1;
  }
  void kill_now() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGKILL);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
  }
  std::string log() const {
    std::ifstream in(log_);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }

 private:
  bool exited() {
    if (pid_ <= 0) return true;
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) != pid_) return false;
    pid_ = -1;
    status_ = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return true;
  }

  static inline int counter_ = 0;
  std::string log_;
  pid_t pid_ = -1;
  int status_ = -1;
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
                                         const std::string& updates = "state") {
  auto c = std::make_unique<Connection>("127.0.0.1", port);
  const auto w =
      c->request({{"type", "hello"}, {"protocol", 1}, {"name", name}, {"updates", updates}});
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
