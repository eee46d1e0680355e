// What a room needs from a connection: a thread-safe way to send it frames and to drop it.
// Rooms hold weak references to clients; clients hold a room code, never the room.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "protocol/requests.hpp"

namespace campfire::server {

using Frame = std::shared_ptr<const std::string>;

inline Frame make_frame(std::string text) {
  return std::make_shared<const std::string>(std::move(text));
}

// How a connection asked, in `hello`, to hear a room's changes: each event and then the state in
// frames of their own (the default), or one `update` frame per change with the events and the
// whole state, or with the state as a merge patch against the last state it was sent.
using protocol::UpdateMode;

class Client {
 public:
  virtual ~Client() = default;
  // May be called from any thread.
  virtual UpdateMode updates() const { return UpdateMode::kState; }
  // False when the connection asked, in `hello`, for no words: events without `text`, states
  // without `labels`. May be called from any thread.
  virtual bool texts() const { return true; }
  // Queues a text frame; may be called from any thread.
  virtual void send(Frame frame) = 0;
  // The room accepted this client as a seat or spectator (after join, rejoin or spectate).
  // `token` is the seat's token (empty for a spectator): the node holding a connection forwarded
  // from another node keeps it to rejoin for its player if the room moves; it goes to nobody else.
  virtual void entered(const std::string& room, const std::string& token) = 0;
  // The room has moved this client out of `room` (e.g. its seat was taken over by a rejoin).
  virtual void evicted(const std::string& room) = 0;
  // A rejoin of this client was answered: `resumed` tells whether its token matched a seat.
  virtual void rejoin_answered(bool resumed) { (void)resumed; }
  // The token of the seat this client took in `room`, if it keeps it (empty: it does not). A
  // connection forwarded from another node keeps it: its player may not have received it, the
  // answer lost between the nodes, and repeats its join. May be called from any thread.
  virtual std::string seat_token(const std::string& room) const {
    (void)room;
    return {};
  }
};

}  // namespace campfire::server
