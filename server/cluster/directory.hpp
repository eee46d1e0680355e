// The room directory and the leases, in Redis.
//
// Each node holds one lease, `campfire:node:ID`, whose value is the node's incarnation (a random
// value chosen at each start) and which expires unless renewed. A room's owner is written in the
// room as "ID/INCARNATION" with a fencing epoch; the owner's lease is the room's lease: the room is
// owned while that incarnation's lease lives. So a node renews one key for all its rooms, and a
// room whose owner died (or restarted) is "orphaned" once the lease lapses.
//
// Every node watches the leases of the others. When one lapses, the survivors claim its rooms
// (each its share first, then any left after a short grace), each claim an atomic script that
// moves the room to the claimer and raises its epoch; the journal refuses any write with an older
// epoch. A node that cannot renew stops acting for its rooms before its lease can have expired in
// Redis (at lease - margin from its last successful renewal), so two nodes never act for one room.
// Once it can renew again (or, if the lease was lost, once it has a new one) it claims its rooms
// back at a new epoch, before the others may (they wait until they have been connected for a
// while), and rebuilds them from the journal.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "server/cluster/link.hpp"
#include "server/cluster/redis_journal.hpp"

namespace campfire::server::cluster {

class Directory {
 public:
  struct Options {
    std::string node;
    std::chrono::milliseconds lease{5000};
    // Derived from the lease when zero: renew every lease/5; act until lease - lease/5 after
    // the last renewal sent; look at the other leases every min(500 ms, lease/10); claim other
    // nodes' share of an orphan after lease/5.
    std::chrono::milliseconds renew_every{0};
    std::chrono::milliseconds margin{0};
    std::chrono::milliseconds scan_every{0};
    std::chrono::milliseconds claim_grace{0};
    std::string advertise;  // what the node tells about itself in campfire:nodes
  };

  struct Callbacks {
    // This node now owns `code` at `epoch` (claimed from a dead node, or back after a lapse):
    // rebuild it from the journal.
    std::function<void(const std::string& code, long long epoch)> claimed;
    // The lease could not be renewed in time: stop acting for every room now (they come back
    // through `claimed`).
    std::function<void()> lapsed;
    // This node took its lease again after losing it, as a new incarnation: what it says on
    // the bus from now on must carry that one.
    std::function<void(const std::string& incarnation)> new_incarnation;
    // Another node's incarnation `incarnation` is gone (it died, restarted or lapsed).
    std::function<void(const std::string& node, const std::string& incarnation)> node_gone;
  };

  Directory(RedisLink& link, Options options, Callbacks callbacks);
  ~Directory();
  Directory(const Directory&) = delete;
  Directory& operator=(const Directory&) = delete;

  // Takes the node's lease, waiting for the lease of an earlier run of this node id to lapse;
  // throws std::runtime_error when another live node holds the id. Then renews and watches.
  void start();
  // Stops renewing and watching. With `release`, gives the lease up at once so the other nodes
  // take the rooms over without waiting for it to expire.
  void stop(bool release);

  const std::string& node() const { return options_.node; }
  std::string incarnation() const;
  // Whether this node may act for its rooms now (its lease is surely valid).
  bool acting() const;

  // The fence for a room this node owns; nullopt when it does not.
  std::optional<Fence> fence(const std::string& code) const;
  // A room created here: owned at epoch 1 (its creation record makes it so in Redis).
  Fence adopt_new(const std::string& code);
  // The room is no longer this node's (dropped, or taken by another node).
  void forget(const std::string& code);
  // Gives a finished room up: it stays in the journal but nobody claims it any more.
  void release(const std::string& code);
  // Codes of the rooms this node owns.
  std::vector<std::string> owned() const;

  // The node owning a room as Redis has it (async, on the link's strand): its id, and whether
  // its lease is alive; nullopt when the room is not in the journal.
  struct Owner {
    std::string node;
    long long epoch = 0;
    bool alive = false;
  };
  void owner_of(const std::string& code, std::function<void(std::optional<Owner>)> done);
  // The ids of the nodes whose lease is alive, from the last look.
  std::vector<std::string> live_nodes() const;

  const Options& options() const { return options_; }

 private:
  void acquire();
  void renew();
  void renew_later(std::chrono::milliseconds after);
  void check_validity();
  void scan();
  void scan_later();
  void scan_node(const std::string& node, bool mine);
  void claim(const std::string& code, bool mine);
  void reclaim_mine();
  bool my_share(const std::string& code) const;
  void set_acting(bool acting);

  RedisLink& link_;
  Options options_;
  Callbacks callbacks_;
  std::unique_ptr<asio::steady_timer> renew_timer_;
  std::unique_ptr<asio::steady_timer> scan_timer_;
  std::unique_ptr<asio::steady_timer> validity_timer_;

  // On the link's strand. `alive_` turns false when the directory stops: replies and timers
  // that outlive it hold it and look before touching anything else.
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
  std::chrono::steady_clock::time_point valid_until_{};
  std::chrono::steady_clock::time_point connected_since_{};
  bool was_up_ = false;
  bool reclaim_pending_ = false;
  bool renewing_ = false;
  bool stopped_ = false;
  std::map<std::string, std::string> seen_leases_;  // node -> incarnation seen at the last look
  // Orphaned rooms: their owner node, and since when they are known to be orphaned.
  std::map<std::string, std::pair<std::string, std::chrono::steady_clock::time_point>> orphans_;
  std::set<std::string> claiming_;

  mutable std::mutex mutex_;
  std::string incarnation_;
  bool acting_ = false;
  std::map<std::string, long long> epochs_;  // rooms this node owns
  std::vector<std::string> live_;
};

// A fresh random incarnation (64 bits from the operating system, hex).
std::string new_incarnation();
// Whether `id` may name a node: 1 to 64 of A-Z a-z 0-9 . _ -
bool valid_node_id(std::string_view id);

}  // namespace campfire::server::cluster
