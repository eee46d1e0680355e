// What both faces of campfire-cli (the full-screen table and the line mode) share: the link to
// the server, the greeting, the room you are in and its latest state, the seats you hold, and
// taking your seat back by yourself after the connection came back.
#pragma once

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>

#include "clients/cli/link.hpp"
#include "clients/cli/seat_store.hpp"
#include "clients/common/updates.hpp"

namespace campfire::cli {

using json = nlohmann::json;

class Session {
 public:
  struct Event {
    Link::Kind kind = Link::Kind::message;
    json message;
    std::string why;
    // A reply to a request the session sent by itself (the greeting, the game list, taking the
    // seat back): shown or not as the face likes.
    bool own = false;
  };

  Session(Endpoint endpoint, std::string name, SeatStore& seats);

  Link& link() { return link_; }
  // Connects and greets the server before returning; throws when it cannot be reached.
  void connect_now();
  // Connects in the background; poll() tells when the connection is up.
  void connect_later() { link_.connect_later(); }
  const Endpoint& endpoint() const { return link_.endpoint(); }

  // The next event within `timeout` (after the session took note of it), or nullopt. An update
  // frame comes out as the `event` and `state` messages it stands for, one per call.
  std::optional<Event> poll(std::chrono::milliseconds timeout);

  // Sends a request with a fresh id (set here) and returns the id; nullopt when not connected.
  std::optional<std::string> request(json message);
  // Sends as it is; false when not connected.
  bool send(const json& message);

  // True from a new connection until the greeting, the game list and (when you were in a room)
  // taking the seat back have been answered.
  bool settling() const {
    return !link_.connected() || !greeted_ || rejoining_ || !games_.is_array();
  }
  bool greeted() const { return greeted_; }
  const std::string& name() const { return name_; }
  const std::string& server_name() const { return server_name_; }

  const std::string& room() const { return room_; }
  bool spectating() const { return spectating_; }
  int seat() const { return seat_; }
  // The latest state of the room (null before the first), and whether the game is over.
  const json& state() const { return state_; }
  bool game_over() const { return game_over_; }
  // The games the server offers, as `games` lists them (null until they came).
  const json& games() const { return games_; }
  const json* game(const std::string& id) const;

  SeatStore& seats() { return seats_; }

  // Forgets the room on this side (after `leave` was answered, say).
  void clear_room();

 private:
  void greet();
  void after_welcome();
  void note(const json& m, bool own);
  Event take(Event e);

  Link link_;
  client::UpdateReader updates_;
  std::deque<json> unread_;  // the rest of an update frame, still to hand out
  std::string name_;
  SeatStore& seats_;
  std::int64_t next_id_ = 1;
  bool greeted_ = false;
  bool rejoining_ = false;
  std::string server_name_;
  std::string hello_id_;
  std::string games_id_;
  std::string rejoin_id_;
  std::string sync_id_;  // the last sync this session asked for itself (a patch it could not apply)
  std::string room_;
  bool spectating_ = false;
  int seat_ = -1;
  std::string token_;
  json state_;
  bool game_over_ = false;
  bool game_noted_ = false;
  json games_;
  // Whether the next `joined` comes from create_room (so the room's game and privacy are known).
  json pending_create_;
  std::string pending_create_id_;
};

}  // namespace campfire::cli
