// What the client tests share: an in-process server on an ephemeral port, and child processes
// (campfire-bot, campfire-cli, the Python bot) driven through pipes with bounded waits.
#pragma once

#include <gtest/gtest.h>
#include <spdlog/spdlog.h>
#include <nlohmann/json.hpp>

#include <unistd.h>
#include <chrono>

#include <csignal>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "server/server.hpp"

namespace campfire::test {

using json = nlohmann::json;
using namespace std::chrono_literals;

// A child process with stdin and stdout (stderr merged into it) on pipes. Killed if still running
// when destroyed.
class Process {
 public:
  explicit Process(std::vector<std::string> argv);
  ~Process();
  Process(const Process&) = delete;
  Process& operator=(const Process&) = delete;

  void write(const std::string& text);
  void close_stdin();
  // The next output line, or nullopt at the end of the output or when `timeout` passes first.
  std::optional<std::string> read_line(std::chrono::milliseconds timeout);
  // Reads the output to its end and waits for the exit; kills the child when `timeout` passes
  // first. Returns the exit code (-1 when killed or signalled).
  int wait(std::chrono::milliseconds timeout);
  // Everything read from the child so far.
  const std::string& output() const { return output_; }

 private:
  // Reads what is available within `timeout`; false at the end of the output.
  bool fill(std::chrono::milliseconds timeout);

  int pid_ = -1;
  int in_ = -1;
  int out_ = -1;
  bool out_done_ = false;
  std::string buffer_;  // read but not yet returned by read_line
  std::string output_;
  std::optional<int> exit_code_;
};

// The lines of `text` that start with `prefix`, without it.
std::vector<std::string> lines_starting(const std::string& text, const std::string& prefix);

class ClientTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::signal(SIGPIPE, SIG_IGN);  // a child that exits early must not kill the test
    spdlog::set_level(spdlog::level::warn);
    server::Config config;
    data_dir_ = std::filesystem::temp_directory_path() /
                ("campfire-client-test-" + std::to_string(::getpid()));
    std::filesystem::remove_all(data_dir_);
    config.data_dir = data_dir_.string();
    config.bind = "127.0.0.1";
    config.port = 0;
    config.test_mode = true;
    // Server bots answer at once, in timed windows too: these tests play whole games.
    config.bot_delay_ms = 0;
    config.bot_reaction_min_ms = 0;
    config.bot_reaction_max_ms = 0;
    config.journal_wal_mb = 0;  // a WAL written ahead is the journal tests' business
    // The default rate limit stays: the clients must live within it.
    config_ = config;
    server_ = std::make_unique<server::Server>(config);
    port_ = server_->start();
  }
  // Stops the server and starts it again on the same port with the same journal, as an
  // operator's restart would.
  void restart_server() {
    server_->stop();
    server_.reset();
    config_.port = port_;
    server_ = std::make_unique<server::Server>(config_);
    server_->start();
  }
  void TearDown() override {
    if (server_) server_->stop();
    server_.reset();
    std::filesystem::remove_all(data_dir_);
  }

  std::string port() const { return std::to_string(port_); }
  std::vector<std::string> bot_args(std::vector<std::string> extra) const;

  server::Config config_;
  std::unique_ptr<server::Server> server_;
  std::uint16_t port_ = 0;
  std::filesystem::path data_dir_;
};

}  // namespace campfire::test
