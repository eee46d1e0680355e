// The bus between nodes, over Redis pub/sub: each node listens on its own channel and on one
// every node shares. A node holding a client's connection sends it requests for rooms owned
// elsewhere; the owner sends back the frames for that connection; nodes ask each other for
// what the admin API and the lobby show of the whole cluster.
//
// Messages are batched: whatever one node sends another during one turn of its Redis thread
// leaves as one PUBLISH. Pub/sub delivers at most once: a message sent while a link is down is
// lost, which the cluster layer tolerates (a client notices a version gap and asks for a
// resync; a request that gets no answer in time is answered with an error).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "server/cluster/link.hpp"

namespace campfire::server::cluster {

// One message on the bus. Which fields mean what depends on the kind.
struct BusItem {
  enum class Kind : std::uint8_t {
    kRequest = 1,  // client node -> owner: `text` is the client's request (number `number` of
                   // connection `conn`), `name` its player's name, `address` its network
                   // address, `frames[0]` the update mode its hello asked for
    kGone,         // client node -> owner: the connection closed (`room` empty) or left `room`
    kFrames,       // owner -> client node: `frames` for connection `conn`; its requests up to
                   // number `number` have reached the owner
    kEntered,      // owner -> client node: the connection is now a member of `room` (`text`:
                   // its seat's token, empty for a spectator)
    kEvicted,      // owner -> client node: the connection's seat in `room` was taken over
    kRetired6,     // never sent (planned for answered rejoins, which kEntered covers); it
                   // holds number 6 so that the kinds after it keep theirs on the wire
    kClaimed,      // to all: `room` is now owned by the sender at epoch `number`
    kAsk,          // node -> node: question `text` (JSON), answered with kAnswer `number`
    kAnswer,       // node -> node: the answer `text` to question `number`
    kLost,         // node -> node: items the sender meant for the receiver were lost on the
                   // way (its link to Redis failed them): frames may be missing
    kHeld,         // owner -> client node: `frames` are the numbers of that node's connections
                   // the owner holds stand-ins for; it answers kGone for those it no longer has
    kCount
  };
  Kind kind = Kind::kRequest;
  std::uint64_t conn = 0;
  std::int64_t number = 0;
  bool flag = false;
  std::string room;
  std::string text;
  std::string name;
  std::string address;
  std::vector<std::string> frames;
};

// Who sent a batch: a node id and its incarnation (so messages of an earlier run of a node are
// told apart from those of the current one).
struct BusSender {
  std::string node;
  std::string incarnation;
};

// The wire form of a batch (a version byte, the sender, then the items). decode refuses
// anything malformed or truncated.
std::string encode_batch(const BusSender& from, const std::vector<BusItem>& items);
std::optional<std::pair<BusSender, std::vector<BusItem>>> decode_batch(std::string_view bytes);

class Bus {
 public:
  using Receive = std::function<void(const BusSender& from, BusItem item)>;

  // Subscribes (call before link.start()); `receive` runs on the subscriber's strand. Stop or
  // destroy the link before the bus.
  Bus(RedisLink& link, std::string node, Receive receive);

  // The sender's identity (the incarnation changes when the node's lease is taken again).
  void set_incarnation(std::string incarnation);
  // Queues an item for `node` (empty: every node); sent with the rest of this turn's items.
  void send(const std::string& node, BusItem item);

  struct Stats {
    std::uint64_t batches_sent = 0;
    std::uint64_t items_sent = 0;
    std::uint64_t batches_received = 0;
    std::uint64_t items_received = 0;
    std::uint64_t dropped = 0;    // malformed, or lost for want of a connection
    std::uint64_t lost_told = 0;  // kLost items sent after a loss
  };
  Stats stats() const;

 private:
  void flush();

  RedisLink& link_;
  std::string node_;
  Receive receive_;
  mutable std::mutex mutex_;
  std::string incarnation_;
  // Items waiting, grouped by destination in the order they were sent (one group per run of
  // items for the same destination), so nothing overtakes what was sent before it.
  std::vector<std::pair<std::string, std::vector<BusItem>>> pending_;
  bool flush_posted_ = false;
  // Nodes some of whose items could not be published: each is told so (kLost) once the link
  // publishes again, and mends what it missed. The count is how many notices reached no
  // subscriber (the node may be resubscribing, or gone): after a few the notice is given up.
  std::map<std::string, int> lost_to_;
  bool lost_retry_armed_ = false;
  void lost(const std::string& node, int unheard, bool failed);
  Stats stats_;
};

}  // namespace campfire::server::cluster
