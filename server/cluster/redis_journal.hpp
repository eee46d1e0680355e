// The journal of a cluster node, in Redis: the same promise as the SQLite journal (a record is
// durable in Redis before its completion runs, and rooms hold their frames until then), with
// every write fenced by ownership. A record carries the owner it was written for (node,
// incarnation, epoch); Redis refuses it unless that node still holds its lease and still owns the
// room at that epoch, so a node that lost a room, or its lease, can never append to its log.
//
// When the connection breaks, records whose answer did not come are sent again, in order, once it
// is back (the writes are idempotent); until then their rooms wait. How durable an answered write
// is depends on Redis' persistence (appendonly, appendfsync): see README, "Running a cluster".
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "server/cluster/link.hpp"
#include "server/journal.hpp"

namespace campfire::server::cluster {

// Who writes for a room: a node's incarnation and the epoch of its ownership.
struct Fence {
  std::string node;
  std::string incarnation;
  long long epoch = 0;
};

class RedisJournal final : public Journal {
 public:
  // `fence_of(code)` names the ownership a record of that room is written under, at write();
  // nullopt refuses the record at once (the node does not own the room).
  using FenceOf = std::function<std::optional<Fence>(const std::string& code)>;

  RedisJournal(RedisLink& link, FenceOf fence_of);
  ~RedisJournal() override;

  bool durable() const override { return true; }
  void write(Record record, Done done) override;
  // The same, under an explicit fence (a room object knows the epoch it was built at).
  void write(Record record, const Fence& fence, Done done);
  // Waits until every queued record is answered, or `patience` has passed.
  void flush() override;
  bool flush_for(std::chrono::milliseconds patience);

  std::vector<StoredRoom> live(std::int64_t finished_since_ms) override;
  std::optional<StoredRoom> load(const std::string& code) override;
  bool has(const std::string& code) override;
  std::size_t prune(std::int64_t before_ms) override;
  void prune_soon(std::int64_t before_ms, std::function<void(std::size_t)> done) override;
  Stats stats() const override;

  // Fails (done(false)) every record of `code` still waiting: its room object is gone.
  void abandon(const std::string& code);
  // Records waiting for an answer (sent or not).
  std::size_t backlog() const;

 private:
  struct Entry;
  void enqueue(std::shared_ptr<Entry> e);
  void send(const std::shared_ptr<Entry>& e);
  void answered(const std::shared_ptr<Entry>& e, std::uint64_t attempt, Reply r);
  void resend();
  void complete_front();
  void resend_later();

  RedisLink& link_;
  FenceOf fence_of_;
  // On the link's command strand. `alive_` turns false when the journal is destroyed.
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
  std::deque<std::shared_ptr<Entry>> queue_;
  std::size_t unsent_ = 0;
  std::uint64_t attempts_ = 0;
  std::unique_ptr<asio::steady_timer> resend_timer_;
  bool resend_armed_ = false;

  mutable std::mutex mutex_;
  std::condition_variable idle_;
  std::size_t waiting_ = 0;  // queued and not yet completed
  Stats stats_;
  std::chrono::steady_clock::time_point last_complaint_;
};

}  // namespace campfire::server::cluster
