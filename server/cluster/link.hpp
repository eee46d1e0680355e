// A node's link to the cluster's Redis: a thread of its own running two connections, one for
// commands (journal writes, leases, directory, publishing) and one for subscriptions, with the
// cluster's Lua scripts loaded on every (re)connection.
#pragma once

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include <array>
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "server/cluster/redis.hpp"
#include "server/cluster/scripts.hpp"

namespace campfire::server::cluster {

class RedisLink {
 public:
  using Handler = std::function<void(std::string_view channel, std::string_view message)>;

  struct Options {
    RedisUrl url;
    std::string node;  // shown in Redis' CLIENT LIST
    std::chrono::milliseconds connect_timeout{2000};
    std::chrono::milliseconds reply_timeout{2000};
  };

  explicit RedisLink(Options options);
  ~RedisLink();
  RedisLink(const RedisLink&) = delete;
  RedisLink& operator=(const RedisLink&) = delete;

  // Subscribes `channel` (on every connection of the subscriber). Call before start().
  void subscribe(std::string channel, Handler handler);
  // Listens for the command connection going up (true) or down (false); on its strand. Call
  // before start().
  void on_state(std::function<void(bool up)> listener);

  // Listens for the subscriber's subscriptions coming back after it lost them (messages published
  // meanwhile are lost); on the link's thread. May be called at any time.
  void on_resubscribed(std::function<void()> listener);

  // Connects both; throws std::runtime_error (one line: what is wrong) when Redis cannot be
  // reached, or refuses, within `patience`.
  void start(std::chrono::milliseconds patience);
  void stop();

  void command(Connection::Args args, Connection::Done done);
  Reply call(Connection::Args args, std::chrono::milliseconds patience = std::chrono::seconds(5));
  // EVALSHA of one of the cluster's scripts, with no keys and `args` as ARGV.
  void script(Script which, Connection::Args args, Connection::Done done);
  Reply call_script(Script which, Connection::Args args,
                    std::chrono::milliseconds patience = std::chrono::seconds(5));

  bool up() const { return commands_ && commands_->up(); }
  bool subscriber_up() const { return subscriber_ && subscriber_->up(); }
  const RedisUrl& url() const { return options_.url; }
  boost::asio::io_context& ioc() { return ioc_; }
  // The command connection's strand: the journal and the directory run their logic on it, so
  // their sends and the connection's state changes are ordered.
  asio::strand<asio::io_context::executor_type>& strand() { return commands_->strand(); }

 private:
  Options options_;
  boost::asio::io_context ioc_;
  std::optional<boost::asio::executor_work_guard<boost::asio::io_context::executor_type>> work_;
  std::shared_ptr<Connection> commands_;
  std::shared_ptr<Connection> subscriber_;
  std::vector<std::pair<std::string, Handler>> channels_;
  std::vector<std::function<void(bool)>> listeners_;
  std::mutex resubscribed_mutex_;
  std::vector<std::function<void()>> resubscribed_;
  bool subscribed_before_ = false;  // on the subscriber's strand
  // SHA1 of each script, set on the command strand when it is loaded.
  std::array<std::string, static_cast<std::size_t>(Script::kCount)> shas_;
  std::thread thread_;
  bool started_ = false;
  // The subscriber is watched end to end: the command connection publishes a numbered
  // heartbeat to a channel of this link's own; when several in a row do not come back, the
  // subscriber is dropped and reconnects.
  void heartbeat();
  std::string heartbeat_channel_;
  std::unique_ptr<asio::steady_timer> heartbeat_timer_;
  std::atomic<std::uint64_t> heartbeats_sent_{0};
  std::atomic<std::uint64_t> heartbeats_seen_{0};
};

}  // namespace campfire::server::cluster
