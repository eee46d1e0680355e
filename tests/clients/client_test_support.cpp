#include "tests/clients/client_test_support.hpp"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <stdexcept>

extern char** environ;

namespace campfire::test {

Process::Process(std::vector<std::string> argv) {
  int in[2];
  int out[2];
  // Close-on-exec, so children started later do not hold these pipes open.
  if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0) {
    throw std::runtime_error("pipe failed");
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in[0], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDERR_FILENO);
  // Nothing else of the test goes to the child: a child that lives on (tmux's server) would
  // otherwise keep the test server's listening socket open after it stopped.
  posix_spawn_file_actions_addclosefrom_np(&actions, 3);
  std::vector<char*> args;
  for (auto& a : argv) args.push_back(a.data());
  args.push_back(nullptr);
  const int rc = ::posix_spawn(&pid_, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(in[0]);
  ::close(out[1]);
  in_ = in[1];
  out_ = out[0];
  if (rc != 0) throw std::runtime_error("cannot start " + argv[0]);
}

Process::~Process() {
  if (!exit_code_ && pid_ > 0) {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
  if (in_ >= 0) ::close(in_);
  if (out_ >= 0) ::close(out_);
}

void Process::write(const std::string& text) {
  std::size_t done = 0;
  while (in_ >= 0 && done < text.size()) {
    const ssize_t n = ::write(in_, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    done += static_cast<std::size_t>(n);
  }
}

void Process::close_stdin() {
  if (in_ >= 0) ::close(in_);
  in_ = -1;
}

bool Process::fill(std::chrono::milliseconds timeout) {
  if (out_done_) return false;
  pollfd p{out_, POLLIN, 0};
  if (::poll(&p, 1, static_cast<int>(timeout.count())) <= 0) return true;
  char buf[8192];
  const ssize_t n = ::read(out_, buf, sizeof buf);
  if (n <= 0) {
    out_done_ = true;
    return false;
  }
  buffer_.append(buf, static_cast<std::size_t>(n));
  output_.append(buf, static_cast<std::size_t>(n));
  return true;
}

std::optional<std::string> Process::read_line(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    const auto nl = buffer_.find('\n');
    if (nl != std::string::npos) {
      std::string line = buffer_.substr(0, nl);
      buffer_.erase(0, nl + 1);
      return line;
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0 || !fill(left)) return std::nullopt;
  }
}

int Process::wait(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!out_done_ && std::chrono::steady_clock::now() < deadline) fill(50ms);
  buffer_.clear();
  while (!exit_code_) {
    int status = 0;
    const int r = ::waitpid(pid_, &status, WNOHANG);
    if (r == pid_) {
      exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
      break;
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
      exit_code_ = -1;
      output_ += "\n[killed: still running after the test's time limit]\n";
      break;
    }
    ::usleep(10000);
  }
  return *exit_code_;
}

std::vector<std::string> lines_starting(const std::string& text, const std::string& prefix) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at < text.size()) {
    auto nl = text.find('\n', at);
    if (nl == std::string::npos) nl = text.size();
    if (text.compare(at, prefix.size(), prefix) == 0) {
      out.push_back(text.substr(at + prefix.size(), nl - at - prefix.size()));
    }
    at = nl + 1;
  }
  return out;
}

std::vector<std::string> ClientTest::bot_args(std::vector<std::string> extra) const {
  std::vector<std::string> args = {CAMPFIRE_BOT_BINARY, "--port", port()};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

}  // namespace campfire::test
