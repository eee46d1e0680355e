// This process as a node of a cluster (`--cluster`): its link to the cluster's Redis, its lease
// and rooms in the directory, the Redis journal fenced by them, the bus to the other nodes, the
// cluster-wide room list and the answer to "where is room X" for a room that is not here. The
// server wires the directory's callbacks to the lobby (a claimed room is rebuilt from the journal,
// a lapse stops every room). Without `--cluster` none of this exists.
#pragma once

#include <nlohmann/json.hpp>

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "server/cluster/bus.hpp"
#include "server/cluster/directory.hpp"
#include "server/cluster/link.hpp"
#include "server/cluster/redis_journal.hpp"
#include "server/config.hpp"

namespace campfire::server {

struct RoomSummary;

class ClusterNode {
 public:
  // Connects to Redis; throws std::runtime_error (one line) when it cannot be reached.
  explicit ClusterNode(const Config& config);
  ~ClusterNode();
  ClusterNode(const ClusterNode&) = delete;
  ClusterNode& operator=(const ClusterNode&) = delete;

  const std::string& node() const { return node_; }
  // The journal of this node's rooms, each record fenced by the room's ownership.
  std::unique_ptr<Journal> make_journal();

  // Takes the node's lease (throws when another live node holds the id) and starts renewing it
  // and watching the others; `advertise` is what other nodes and clients are told to reach
  // this node at.
  void start(std::string advertise, cluster::Directory::Callbacks callbacks);
  // Stops renewing; with `release` gives the lease up so the rooms are taken over at once.
  void stop(bool release);
  // Stops the directory and the link to Redis, failing what still waits for an answer: call it
  // while the io_context that those answers post to still exists.
  void disconnect();

  // Reserves a fresh room code cluster-wide (atomic: two nodes never get the same code) and
  // makes the room this node's at epoch 1. `done` runs once, on the link's thread (or at once when
  // this node cannot act): (true, "") when the code is now this node's, (false, "") when it is
  // taken, (false, a sentence for the client) when no room can be made now.
  void claim_code(const std::string& code, std::function<void(bool, const std::string&)> done);
  // Whether this node owns the room now (its lease is valid and no one took the room).
  bool owns(const std::string& code) const;

  // Where a room that is not served here lives, as Redis has it; nullopt when the cluster has no
  // such room.
  struct Whereabouts {
    std::string node;
    std::string advertise;
    bool alive = false;
    bool mine = false;     // this node owns it in Redis but cannot act for it now
    bool unknown = false;  // Redis did not answer: nothing is known
  };
  using Located = std::function<void(std::optional<Whereabouts>)>;
  // Asks Redis without blocking; `done` runs on the link's thread once it answers (or its reply
  // timeout passes: then `unknown`).
  void locate(const std::string& code, Located done);

  // The ids of the nodes whose lease is alive (this one's too), from the directory's last look.
  std::vector<std::string> live_nodes() const;
  // Whether the command connection to Redis is up now.
  bool redis_up() const { return link_->up(); }

  // Listens for the bus coming back after Redis was out of reach (what was sent on it meanwhile
  // is lost); on the link's thread.
  void on_bus_resumed(std::function<void()> listener) {
    link_->on_resubscribed(std::move(listener));
  }

  // The bus to the other nodes. What arrives goes to the receiver set here (nothing before one is
  // set, or after it is cleared with nullptr), on the link's thread.
  cluster::Bus& bus() { return *bus_; }
  void on_bus(cluster::Bus::Receive receive);

  // Writes the summaries of this node's rooms that changed since the last call into the
  // cluster's room list, and drops those of rooms no longer here.
  void publish(const std::vector<RoomSummary>& rooms);
  // Every node's listed rooms, as list_rooms shows them (with "node"), without blocking: `done`
  // runs on the link's thread (nullopt when Redis does not answer).
  void list_rooms(std::function<void(std::optional<nlohmann::json>)> done);

 private:
  const Config& config_;
  std::string node_;
  std::unique_ptr<cluster::RedisLink> link_;
  std::unique_ptr<cluster::Directory> directory_;
  std::unique_ptr<cluster::Bus> bus_;
  std::mutex receive_mutex_;
  cluster::Bus::Receive receive_;
  std::map<std::string, std::string> published_;  // code -> the summary last written
};

}  // namespace campfire::server
