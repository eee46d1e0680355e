// What a WebSocket connection keeps while it plays or watches in rooms of other nodes of a
// cluster (server/websocket_forwarding.cpp), shared by the two files of the connection.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <deque>
#include <set>
#include <string>
#include <string_view>

#include "server/websocket_session.hpp"

namespace campfire::server {

// How long a request sent to another node waits for that node's receipt before its sender is
// told the node does not answer (pub/sub loses what is sent while a link is down).
inline constexpr std::chrono::milliseconds kForwardPatience{2500};
// How long a request that reached its room's node may wait for its reply before the sender is
// told to sync: the reply may have been lost on the bus, or its node may have died after taking
// the request. Longer than a journal write can take while Redis restarts.
inline constexpr std::chrono::milliseconds kReplyPatience{10000};
// How often a connection whose room's node died looks for the room's new owner (the new owner's
// claim on the bus usually comes first).
inline constexpr std::chrono::milliseconds kMoveRetry{250};
// The id of the rejoin (or spectate) a node makes for its player when the room moves, and how its
// answers are told apart from the frames the player is to see.
inline constexpr const char* kMoveId = "campfire:moved";
inline constexpr std::string_view kMoveReplyMark = "\"id\":\"campfire:moved\"";
// The id of the sync a node makes for its player when the bus between nodes comes back (frames
// sent while it was down are lost), and how its reply is told apart; the state that follows is
// the player's.
inline constexpr const char* kResyncId = "campfire:resync";
inline constexpr std::string_view kResyncReplyMark = "\"id\":\"campfire:resync\"";

// What a request forwarded to another node does when sent again, and so what its player is told
// to do when its answer does not come.
enum class Again : std::uint8_t {
  kSame,    // the same as once (a leave, start, contribute, sync, ...): try again
  kTwice,   // it is applied again (a move, a bot): look with sync first
  kEnters,  // answered as the first time, seat and token included (join, rejoin, spectate)
};

// The state of a connection that forwards requests to other nodes.
struct WebSocketSession::Forwarded {
  explicit Forwarded(const boost::asio::any_io_executor& ex) : patience(ex), move_timer(ex) {}

  std::uint64_t conn = 0;         // the connection's number on the bus
  std::string node;               // the node owning room_code_ when it is elsewhere; else empty
  std::string token;              // the seat's token there (empty: a spectator)
  std::set<std::string> proxies;  // the nodes holding a proxy of this connection
  std::int64_t sent = 0;          // requests sent, numbered from 1
  // The room the connection last left while it was elsewhere, and its node, until it enters a
  // room again: a leave of that room repeated (its answer was lost) goes to that node again.
  std::string left_room;
  std::string left_node;
  struct Waiting {
    std::int64_t seq;
    std::string node;
    json id;
    std::chrono::steady_clock::time_point until;
    bool received = false;       // its node took it; it waits for its reply (it has an id)
    bool resync = false;         // a sync this node made for its player after frames were lost
    Again again = Again::kSame;  // what sending it again does
  };
  // Sent and not yet taken by their node, or taken and with an id whose reply has not come;
  // oldest first.
  std::deque<Waiting> waiting;
  boost::asio::steady_timer patience;
  // The room's node died: the connection follows the room to its new owner.
  bool moving = false;
  bool attempting = false;  // a rejoin made for the player is being handed on (not refused)
  std::chrono::steady_clock::time_point moving_since;
  int move_replies = 0;    // answers still due to rejoins made for the player
  int resync_replies = 0;  // answers still due to syncs made for the player
  bool told = false;       // the player was told the room moved
  boost::asio::steady_timer move_timer;
};

}  // namespace campfire::server
