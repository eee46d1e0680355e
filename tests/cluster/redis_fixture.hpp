// A real redis-server for one test: its own free port on 127.0.0.1 and its own temporary
// directory (append-only file on, every write synced), started and stopped by the test. It never
// touches a Redis the machine may already run.
#pragma once

#include <fcntl.h>
#include <hiredis/hiredis.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace campfire::server::testing {

inline std::uint16_t free_tcp_port() {
  boost::asio::io_context ioc;
  boost::asio::ip::tcp::acceptor a(ioc, {boost::asio::ip::make_address("127.0.0.1"), 0});
  return a.local_endpoint().port();
}

inline std::filesystem::path fresh_temp_dir(const std::string& prefix) {
  static std::atomic<int> counter{0};
  const auto dir =
      std::filesystem::temp_directory_path() /
      (prefix + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter.fetch_add(1)));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

// Polls `pred` until it holds or `patience` runs out; the last answer is the result.
template <class Pred>
bool eventually(Pred pred, std::chrono::milliseconds patience = std::chrono::seconds(15)) {
  const auto deadline = std::chrono::steady_clock::now() + patience;
  while (std::chrono::steady_clock::now() < deadline) {
    if (pred()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return pred();
}

class RedisServer {
 public:
  // `appendfsync`: always, everysec or no (the AOF is always on).
  explicit RedisServer(std::string appendfsync = "always", std::uint16_t port = 0)
      : appendfsync_(std::move(appendfsync)),
        port_(port != 0 ? port : free_tcp_port()),
        dir_(fresh_temp_dir("campfire-redis")) {
    try {
      start();
    } catch (...) {
      std::error_code ec;
      std::filesystem::remove_all(dir_, ec);
      throw;
    }
  }
  ~RedisServer() {
    if (pid_ > 0) {
      ::kill(pid_, SIGCONT);
      ::kill(pid_, SIGKILL);
      int status = 0;
      ::waitpid(pid_, &status, 0);
    }
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  RedisServer(const RedisServer&) = delete;
  RedisServer& operator=(const RedisServer&) = delete;

  std::uint16_t port() const { return port_; }
  std::string url(int db = 0) const {
    return "redis://127.0.0.1:" + std::to_string(port_) + "/" + std::to_string(db);
  }
  const std::filesystem::path& dir() const { return dir_; }
  bool running() const { return pid_ > 0; }

  // Starts redis-server (on the same port and directory after a stop) and waits until it
  // answers PING, having loaded its append-only file.
  void start() {
    if (pid_ > 0) return;
    const std::string log = (dir_ / "redis.log").string();
    std::vector<std::string> args = {"redis-server",
                                     "--port",
                                     std::to_string(port_),
                                     "--bind",
                                     "127.0.0.1",
                                     "--dir",
                                     dir_.string(),
                                     "--save",
                                     "",
                                     "--appendonly",
                                     "yes",
                                     "--appendfsync",
                                     appendfsync_,
                                     "--logfile",
                                     log,
                                     "--daemonize",
                                     "no",
                                     "--protected-mode",
                                     "no"};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    const int rc = posix_spawnp(&pid_, "redis-server", &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) {
      pid_ = -1;
      throw std::runtime_error(std::string("cannot start redis-server: ") + std::strerror(rc) +
                               " (the cluster's tests need it: scripts/install-deps.sh, or make "
                               "deps, installs it)");
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (std::chrono::steady_clock::now() < deadline) {
      if (ping()) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    throw std::runtime_error("redis-server did not answer on port " + std::to_string(port_) +
                             "; see " + log);
  }

  // SIGTERM: Redis finishes its append-only file and exits.
  void stop() { end(SIGTERM); }
  // SIGKILL: what a crash of the machine's Redis looks like to its clients.
  void kill() { end(SIGKILL); }
  // SIGSTOP and SIGCONT: a Redis that hangs with its connections open.
  void pause() { ::kill(pid_, SIGSTOP); }
  void resume() { ::kill(pid_, SIGCONT); }

  // A command over a short-lived synchronous connection (for checks in tests).
  std::string command(const std::vector<std::string>& args) const {
    redisContext* c = redisConnect("127.0.0.1", port_);
    if (c == nullptr || c->err != 0) {
      if (c != nullptr) redisFree(c);
      throw std::runtime_error("cannot reach the test redis");
    }
    std::vector<const char*> argv;
    std::vector<std::size_t> lengths;
    for (const auto& a : args) {
      argv.push_back(a.data());
      lengths.push_back(a.size());
    }
    auto* r = static_cast<redisReply*>(
        redisCommandArgv(c, static_cast<int>(args.size()), argv.data(), lengths.data()));
    std::string out;
    if (r != nullptr) {
      if (r->type == REDIS_REPLY_STRING || r->type == REDIS_REPLY_STATUS ||
          r->type == REDIS_REPLY_ERROR) {
        out.assign(r->str, r->len);
      } else if (r->type == REDIS_REPLY_INTEGER) {
        out = std::to_string(r->integer);
      } else if (r->type == REDIS_REPLY_ARRAY) {
        out = std::to_string(r->elements);
      }
      freeReplyObject(r);
    }
    redisFree(c);
    return out;
  }

 private:
  bool ping() const {
    timeval tv{0, 200000};
    redisContext* c = redisConnectWithTimeout("127.0.0.1", port_, tv);
    if (c == nullptr) return false;
    bool ok = false;
    if (c->err == 0) {
      redisSetTimeout(c, tv);
      if (auto* r = static_cast<redisReply*>(redisCommand(c, "PING"))) {
        ok = r->type == REDIS_REPLY_STATUS && std::string(r->str, r->len) == "PONG";
        freeReplyObject(r);
      }
    }
    redisFree(c);
    return ok;
  }

  void end(int signal) {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGCONT);
    ::kill(pid_, signal);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
  }

  std::string appendfsync_;
  std::uint16_t port_;
  std::filesystem::path dir_;
  pid_t pid_ = -1;
};

}  // namespace campfire::server::testing
