#include "clients/cli/link.hpp"

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace campfire::cli {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

// One connection attempt on its own thread, so the screen stays alive while a server that is
// down or far away is tried. Shared with the thread, which may outlive the Link at exit.
struct Link::Attempt {
  std::mutex mutex;
  std::condition_variable done_cv;
  bool done = false;
  std::unique_ptr<client::Connection> conn;
  std::string error;
};

namespace {

// 0.5 s after the first failure, then 1, 2, 3 and at most 5 s between attempts.
Clock::duration backoff(int failures) {
  static constexpr std::chrono::milliseconds steps[] = {500ms, 1000ms, 2000ms, 3000ms, 5000ms};
  const int i = std::clamp(failures - 1, 0, 4);
  return steps[i];
}

}  // namespace

Link::Link(Endpoint endpoint) : endpoint_(std::move(endpoint)) {}

Link::~Link() {
  close();
}

void Link::connect_now() {
  conn_ = std::make_unique<client::Connection>(endpoint_.host, endpoint_.port, endpoint_.tls,
                                               endpoint_.insecure);
  failures_ = 0;
  waiting_ = false;
}

void Link::connect_later() {
  if (conn_ || attempt_) return;
  start_attempt();
}

void Link::start_attempt() {
  waiting_ = false;
  attempt_ = std::make_shared<Attempt>();
  std::thread([attempt = attempt_, e = endpoint_] {
    std::unique_ptr<client::Connection> conn;
    std::string error;
    try {
      conn = std::make_unique<client::Connection>(e.host, e.port, e.tls, e.insecure);
    } catch (const std::exception& ex) {
      error = ex.what();
    }
    const std::lock_guard lock(attempt->mutex);
    attempt->conn = std::move(conn);
    attempt->error = error.empty() && !attempt->conn ? "cannot connect" : error;
    attempt->done = true;
    attempt->done_cv.notify_all();
  }).detach();
}

void Link::lose(const std::string& why) {
  if (conn_) conn_->abort();
  conn_.reset();
  last_error_ = why;
  waiting_ = true;
  next_try_ = Clock::now() + 200ms;  // a restarting server needs a moment
}

std::optional<Link::Event> Link::poll(std::chrono::milliseconds timeout) {
  if (conn_) {
    std::optional<json> m;
    try {
      m = conn_->receive(timeout);
    } catch (const std::exception&) {
      lose("the server sent something unreadable");
      return Event{Kind::lost, {}, last_error_};
    }
    if (m) return Event{Kind::message, std::move(*m), {}};
    if (!conn_->open()) {
      lose("the connection was lost");
      return Event{Kind::lost, {}, last_error_};
    }
    return std::nullopt;
  }
  if (attempt_) {
    std::unique_lock lock(attempt_->mutex);
    if (!attempt_->done_cv.wait_for(lock, timeout, [&] { return attempt_->done; })) {
      return std::nullopt;
    }
    auto conn = std::move(attempt_->conn);
    const std::string error = attempt_->error;
    lock.unlock();
    attempt_.reset();
    if (conn) {
      conn_ = std::move(conn);
      failures_ = 0;
      last_error_.clear();
      return Event{Kind::connected, {}, {}};
    }
    ++failures_;
    last_error_ = error;
    waiting_ = true;
    next_try_ = Clock::now() + backoff(failures_);
    return Event{Kind::failed, {}, error};
  }
  if (waiting_) {
    const auto now = Clock::now();
    if (now >= next_try_) {
      start_attempt();
      return std::nullopt;
    }
    std::this_thread::sleep_for(std::min<Clock::duration>(timeout, next_try_ - now));
    return std::nullopt;
  }
  std::this_thread::sleep_for(timeout);
  return std::nullopt;
}

bool Link::send(const json& message) {
  if (!conn_) return false;
  pacer_.wait();
  try {
    conn_->send(message);
    return true;
  } catch (const std::exception&) {
    // The loss is reported by the next poll.
    conn_->abort();
    return false;
  }
}

void Link::close() {
  if (conn_) conn_->close();
  conn_.reset();
  waiting_ = false;
}

}  // namespace campfire::cli
