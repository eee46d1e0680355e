// A connection as it asks rooms: the room requests (join, rejoin, spectate, leave, add_bot, start,
// action, chat, sync, history, contribute) checked and handed to a room of this node. Written once
// for the two kinds of connection a node serves: a WebSocket connection of its own, and (in a
// cluster) a connection held by another node whose requests for this node's rooms are forwarded
// here (server/forwarding.hpp).
#pragma once

#include <boost/asio/any_io_executor.hpp>

#include <memory>
#include <string>

#include "protocol/requests.hpp"
#include "server/client.hpp"
#include "server/cluster_node.hpp"
#include "server/context.hpp"

namespace campfire::server {

class RoomClient : public Client {
 public:
  RoomClient(ServerContext& ctx, std::string address);
  ~RoomClient() override;
  RoomClient(const RoomClient&) = delete;
  RoomClient& operator=(const RoomClient&) = delete;

  void entered(const std::string& room, const std::string& token) override;
  void evicted(const std::string& room) override;
  void rejoin_answered(bool resumed) override;

  // The room requests. Each runs on the connection's strand.
  void on(protocol::Join& m, const json& id);
  void on(protocol::Rejoin& m, const json& id);
  void on(protocol::Spectate& m, const json& id);
  void on(protocol::Leave& m, const json& id);
  void on(protocol::AddBot& m, const json& id);
  void on(protocol::Start& m, const json& id);
  void on(protocol::Act& m, const json& id);
  void on(protocol::Chat& m, const json& id);
  void on(protocol::Sync& m, const json& id);
  void on(protocol::History& m, const json& id);
  void on(protocol::Contribute& m, const json& id);

  const std::string& address() const { return address_; }

 protected:
  // The connection's strand: every member below is used there only.
  virtual boost::asio::any_io_executor strand() = 0;
  virtual std::shared_ptr<RoomClient> self() = 0;
  // The connection has closed: nothing more is done for it.
  virtual bool gone() const = 0;
  // Sends an error frame with one of the protocol's codes, or an Error as it came.
  virtual void error(const json& id, protocol::ErrorCode code, const std::string& message) = 0;
  virtual void error(const json& id, const Error& why) = 0;
  // A request for room `code` that may be served elsewhere (a connection here in a room of
  // another node, or repeating a leave of one): true when it was taken care of, and this node's
  // rooms are not asked.
  virtual bool elsewhere(const json& id, const std::string& code) {
    (void)id;
    (void)code;
    return false;
  }
  // A request named a room this node does not have; `otherwise` is what to say when the cluster
  // has no such room either. By default it is refused with what the cluster knows of the room.
  virtual void not_here(const json& id, const std::string& code, const std::string& otherwise) {
    refuse_missing(id, code, otherwise);
  }
  // The connection went from room `old` into another one: it leaves `old` (a room of this node).
  virtual void left_for_another(const std::string& old);
  // After the room bookkeeping of entered() and evicted(), on the strand.
  virtual void after_entered(const std::string& room, const std::string& token) {
    (void)room;
    (void)token;
  }
  virtual void after_evicted(const std::string& room) = 0;

  // The room a request names, if this connection is in it (else an error is sent and null).
  std::shared_ptr<Room> member_room(const json& id, const std::string& code);
  // The room a request names, if it exists and takes requests (else an error and null).
  std::shared_ptr<Room> any_room(const json& id, const std::string& code);
  // Refuses a request for a room that is not here, saying what the cluster knows of it (asked
  // without blocking); one process alone says `no_such_room` with `otherwise`.
  void refuse_missing(const json& id, const std::string& code, const std::string& otherwise);
  // The refusal for a room that is not here, given what the cluster said of it.
  void refuse(const json& id, const std::string& code, const std::string& otherwise,
              const std::optional<ClusterNode::Whereabouts>& where);

  ServerContext& ctx_;
  const std::string address_;  // the network address the connection came from
  std::string name_;           // from its hello
  std::string room_code_;      // the room it is in; empty for none
  int rejoins_in_flight_ = 0;  // rejoins allowed by the address budget, not yet answered
};

}  // namespace campfire::server
