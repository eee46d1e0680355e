// A real campfire-server as a child process, for the tests that must kill it, restart it or run
// several at once: its output goes to a log file, it can be waited for on its port, stopped with
// SIGTERM or SIGKILL, and it is killed when the object goes.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "clients/common/connection.hpp"

extern char** environ;

namespace campfire::test {

class ChildServer {
 public:
  enum class Log { kTruncate, kAppend };

  // Starts `binary` with `args`; its standard output and error go to `log`.
  ChildServer(std::string binary, const std::vector<std::string>& args, std::string log,
              Log mode = Log::kTruncate)
      : log_(std::move(log)) {
    std::vector<std::string> all;
    all.reserve(args.size() + 1);
    all.push_back(std::move(binary));
    all.insert(all.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : all) argv.push_back(a.data());
    argv.push_back(nullptr);
    const int flags = O_WRONLY | O_CREAT | (mode == Log::kAppend ? O_APPEND : O_TRUNC);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, log_.c_str(), flags, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    const int rc = posix_spawn(&pid_, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) throw std::runtime_error("cannot start " + all[0]);
  }
  ~ChildServer() { kill_now(); }
  ChildServer(const ChildServer&) = delete;
  ChildServer& operator=(const ChildServer&) = delete;

  // Waits until the server accepts a connection on `port`; false if it exits or `patience` passes.
  bool ready(std::uint16_t port, std::chrono::seconds patience = std::chrono::seconds(30)) {
    const auto deadline = std::chrono::steady_clock::now() + patience;
    while (std::chrono::steady_clock::now() < deadline) {
      if (exited()) return false;
      try {
        client::Connection probe("127.0.0.1", port);
        return true;
      } catch (const std::exception&) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      }
    }
    return false;
  }

  // Waits for the process to end by itself: its exit status, or -1 when it had to be killed
  // after `patience` (or was ended by a signal).
  int wait_exit(std::chrono::seconds patience) {
    const auto deadline = std::chrono::steady_clock::now() + patience;
    while (std::chrono::steady_clock::now() < deadline) {
      if (exited()) return status_;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    kill_now();
    return -1;
  }

  // SIGTERM, then wait_exit.
  int terminate(std::chrono::seconds patience) {
    if (pid_ > 0) ::kill(pid_, SIGTERM);
    return wait_exit(patience);
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
  const std::string& log_path() const { return log_; }

 private:
  bool exited() {
    if (pid_ <= 0) return true;
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) != pid_) return false;
    pid_ = -1;
    status_ = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return true;
  }

  std::string log_;
  pid_t pid_ = -1;
  int status_ = -1;
};

}  // namespace campfire::test
