// Any node serves any client: requests of this node's connections for rooms another node owns go
// to that node over the bus (server/cluster/bus.hpp); requests other nodes forward here are
// handled against this node's rooms for a proxy of each remote connection, whose frames go back
// over the bus. Also what connections here must hear when a node dies or a room moves.
//
// On the bus: kRequest (a request, its sequence number, the player's name, address and update
// mode) and kGone (the connection closed, or left a room) go to the owner; kFrames (frames, and
// the highest request number received), kEntered (with the seat's token, for that connection's
// node alone) and kEvicted come back; kClaimed tells every node a room has a new owner; kLost
// tells a node that items meant for it were lost, and its connections there ask for whole
// states.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "protocol/requests.hpp"
#include "server/cluster/bus.hpp"

namespace campfire::server {

class ServerContext;
class ForwardedClient;

class Forwarding {
 public:
  // A connection of this node in a room of another node, as the forwarding tells it what
  // happened there. Called from any thread.
  class Remote {
   public:
    virtual ~Remote() = default;
    // Frames from `node` for the connection; requests up to number `received` reached it.
    virtual void remote_frames(const std::string& node, std::int64_t received,
                               std::vector<std::string> frames) = 0;
    // The connection is a member of `room` on `node` (with its seat's token; empty: spectator).
    virtual void remote_entered(const std::string& node, const std::string& room,
                                std::string token) = 0;
    virtual void remote_evicted(const std::string& node, const std::string& room) = 0;
    // Node `node` is gone (its lease lapsed, or it restarted).
    virtual void node_gone(const std::string& node) = 0;
    // Room `room`, which the connection follows (see follow()), has a new owner.
    virtual void room_claimed(const std::string& room) = 0;
    // Frames for the connection from `node` may be lost (empty: from any node): the bus came
    // back after Redis was out of reach, or `node` could not publish some of them.
    virtual void frames_lost(const std::string& node) = 0;
  };

  // Listens on the node's bus (ctx.cluster must exist).
  explicit Forwarding(ServerContext& ctx);
  ~Forwarding();
  Forwarding(const Forwarding&) = delete;
  Forwarding& operator=(const Forwarding&) = delete;

  const std::string& node() const { return node_; }

  // A connection here that forwards: its number on the bus (unique across this node's runs).
  std::uint64_t attach(std::weak_ptr<Remote> remote);
  void detach(std::uint64_t conn);
  // Sends request `text` (number `seq` of connection `conn`) for `room` to its owner `node`.
  void request(const std::string& node, std::uint64_t conn, std::int64_t seq,
               const std::string& room, std::string text, const std::string& name,
               const std::string& address, protocol::UpdateMode updates, bool texts);
  // Tells `node` that connection `conn` left `room` (empty: the connection closed).
  void gone(const std::string& node, std::uint64_t conn, const std::string& room);

  // Connection `conn` follows `room` to its new owner (`waiting`), or no longer does: only
  // those hear that the room was claimed.
  void follow(const std::string& room, std::uint64_t conn, bool waiting);

  // From the directory: another node is gone; this node now owns `room`.
  // Only the proxies of that incarnation's connections go: a node that restarted may already
  // have forwarded requests of its new run before the directory noticed the restart.
  void node_gone(const std::string& node, const std::string& incarnation);
  void claimed(const std::string& room);

  // Drops every proxy (before the io_context their strands use goes).
  void clear();

  struct Stats {
    std::uint64_t requests_forwarded = 0;
    std::uint64_t requests_served = 0;
    std::size_t forwarding = 0;  // open connections here that forwarded to another node
    std::size_t stand_ins = 0;
  };
  Stats stats() const;

 private:
  void receive(const cluster::BusSender& from, cluster::BusItem item);
  std::shared_ptr<Remote> remote(std::uint64_t conn) const;
  std::vector<std::shared_ptr<Remote>> remotes() const;
  void tell_claimed(const std::string& room);
  // Tells `node` which of its connections this node holds stand-ins for (a kGone it sent may
  // have been lost); it answers kGone for those that are gone.
  void tell_held(const std::string& node);
  // Answers an owner's kHeld: kGone for each listed connection no longer forwarding there.
  void check_held(const std::string& node, const std::vector<std::string>& conns);

  ServerContext& ctx_;
  // Listeners on the link outlive this object; they look here first.
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
  cluster::Bus& bus_;
  const std::string node_;
  mutable std::mutex mutex_;
  std::uint64_t next_conn_;
  std::unordered_map<std::uint64_t, std::weak_ptr<Remote>> remotes_;
  // The node each connection here last forwarded a request to.
  std::unordered_map<std::uint64_t, std::string> forwards_to_;
  std::uint64_t requests_forwarded_ = 0;
  std::uint64_t requests_served_ = 0;
  std::multimap<std::string, std::uint64_t> following_;  // room -> connections following it
  // Proxies of other nodes' connections: (node, its connection number) -> proxy.
  std::map<std::pair<std::string, std::uint64_t>, std::shared_ptr<ForwardedClient>> proxies_;
};

}  // namespace campfire::server
