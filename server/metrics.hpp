// Counters, gauges and latency histograms for operators, rendered in the Prometheus text format
// (version 0.0.4) at /metrics. Everything here is lock-free on the paths rooms and connections
// use; only errors by code take a small lock (their codes are a short, fixed set).
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "server/move_cause.hpp"

namespace campfire::server {

// A cumulative histogram over fixed upper bounds (in seconds), as Prometheus expects.
class Histogram {
 public:
  explicit Histogram(std::vector<double> bounds_seconds);
  void observe(std::chrono::nanoseconds d);
  // Appends the _bucket, _sum and _count lines (HELP and TYPE are the caller's).
  void render(std::string& out, std::string_view name) const;
  std::uint64_t count() const { return count_.load(std::memory_order_relaxed); }

 private:
  std::vector<double> bounds_;
  std::vector<std::int64_t> bounds_ns_;
  // Per bucket, not cumulative; the last one is +Inf.
  std::unique_ptr<std::atomic<std::uint64_t>[]> buckets_;
  std::atomic<std::uint64_t> count_{0};
  std::atomic<std::uint64_t> sum_ns_{0};
};

// What the server knows at scrape time that the counters do not hold.
struct MetricsSnapshot {
  std::size_t connections = 0;  // open TCP connections (HTTP and WebSocket)
  std::size_t websockets = 0;   // of which WebSocket sessions
  struct RoomCount {
    std::string game;
    std::string status;
    std::size_t rooms = 0;
    std::size_t humans = 0;
    std::size_t bots = 0;
    std::size_t spectators = 0;
  };
  std::vector<RoomCount> rooms;  // one entry per (game, status) present
  // A node of a cluster: its bus and forwarding.
  struct Cluster {
    std::size_t live_nodes = 0;
    bool redis_up = false;
    std::uint64_t bus_batches_sent = 0;
    std::uint64_t bus_items_sent = 0;
    std::uint64_t bus_batches_received = 0;
    std::uint64_t bus_items_received = 0;
    std::uint64_t bus_dropped = 0;
    std::uint64_t bus_lost_told = 0;
    std::uint64_t requests_forwarded = 0;  // by this node's connections, to other nodes
    std::uint64_t requests_served = 0;     // for other nodes' connections, here
    std::size_t forwarding = 0;            // connections here forwarding to another node
    std::size_t stand_ins = 0;             // other nodes' connections in this node's rooms
  };
  std::optional<Cluster> cluster;
};

class Metrics {
 public:
  Metrics();

  void connection_accepted() { connections_accepted_.fetch_add(1, std::memory_order_relaxed); }
  void connection_refused() { connections_refused_.fetch_add(1, std::memory_order_relaxed); }
  // An action applied by a room; `received` is when its request reached the room.
  void action_applied(std::chrono::steady_clock::time_point received);
  // Any move a room accepted (players', timers', bots'), by why it was made.
  void move_committed(MoveCause cause) {
    moves_[static_cast<std::size_t>(cause)].fetch_add(1, std::memory_order_relaxed);
  }
  void error_sent(std::string_view code);
  void room_created() { rooms_created_.fetch_add(1, std::memory_order_relaxed); }
  // A WebSocket frame written to a connection; the writes to sockets are counted by each
  // connection's stream in `socket_writes` (a burst of frames leaves in one).
  void frame_written() { frames_written_.fetch_add(1, std::memory_order_relaxed); }
  std::atomic<std::uint64_t>& socket_writes() { return socket_writes_; }
  void observe_journal_write(std::chrono::nanoseconds d) { journal_write_.observe(d); }
  // A server bot's search began or ended on the bot pool.
  void bot_search_started() { bot_searches_.fetch_add(1, std::memory_order_relaxed); }
  void bot_search_ended() { bot_searches_.fetch_sub(1, std::memory_order_relaxed); }
  std::int64_t bot_searches() const { return bot_searches_.load(std::memory_order_relaxed); }

  std::uint64_t actions() const { return actions_.load(std::memory_order_relaxed); }
  std::uint64_t moves(MoveCause cause) const {
    return moves_[static_cast<std::size_t>(cause)].load(std::memory_order_relaxed);
  }
  // Actions applied during the last whole second.
  std::uint64_t actions_last_second() const;

  std::string render(const MetricsSnapshot& snapshot) const;
  // A cluster's node: every sample gets a `node` label (set before the first render).
  void set_node(std::string node) { node_ = std::move(node); }

 private:
  static std::int64_t now_seconds();
  std::string node_;

  std::atomic<std::uint64_t> connections_accepted_{0};
  std::atomic<std::uint64_t> connections_refused_{0};
  std::atomic<std::uint64_t> rooms_created_{0};
  std::atomic<std::uint64_t> frames_written_{0};
  std::atomic<std::uint64_t> socket_writes_{0};
  std::atomic<std::int64_t> bot_searches_{0};
  std::atomic<std::uint64_t> actions_;
  std::array<std::atomic<std::uint64_t>, kMoveCauses> moves_;
  // Actions per second in a ring of four seconds: the high 32 bits of a slot hold the second it
  // counts (modulo 2^32), the low 32 bits the count.
  std::array<std::atomic<std::uint64_t>, 4> per_second_;
  Histogram action_latency_;
  Histogram journal_write_;
  mutable std::mutex errors_mutex_;
  std::map<std::string, std::uint64_t, std::less<>> errors_;
};

}  // namespace campfire::server
