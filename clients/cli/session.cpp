#include "clients/cli/session.hpp"

#include <ctime>
#include <iterator>

#include "clients/cli/table.hpp"
#include "protocol/requests.hpp"

namespace campfire::cli {

namespace proto = campfire::protocol;

Session::Session(Endpoint endpoint, std::string name, SeatStore& seats)
    : link_(std::move(endpoint)), name_(std::move(name)), seats_(seats) {}

void Session::connect_now() {
  link_.connect_now();
  greet();
}

std::optional<std::string> Session::request(json message) {
  const std::string id = std::to_string(next_id_++);
  message["id"] = id;
  if (message.value("type", "") == "create_room") {
    pending_create_ = message;
    pending_create_id_ = id;
  }
  if (!link_.send(message)) return std::nullopt;
  return id;
}

bool Session::send(const json& message) {
  return link_.send(message);
}

const json* Session::game(const std::string& id) const {
  if (!games_.is_array()) return nullptr;
  for (const json& g : games_) {
    if (g.value("id", "") == id) return &g;
  }
  return nullptr;
}

void Session::clear_room() {
  room_.clear();
  spectating_ = false;
  seat_ = -1;
  token_.clear();
  state_ = nullptr;
  game_over_ = false;
}

void Session::greet() {
  greeted_ = false;
  rejoining_ = false;
  hello_id_ = "hello-" + std::to_string(next_id_++);
  json hello = client::hello(name_);
  hello["id"] = hello_id_;
  link_.send(hello);
}

// Once greeted: the game list (for `create`, `rules` and the tables' titles), and the seat or
// the watch you had before the connection dropped.
void Session::after_welcome() {
  greeted_ = true;
  if (!games_.is_array()) {
    games_id_ = "games-" + std::to_string(next_id_++);
    link_.send(proto::encode(proto::ListGames{}, games_id_));
  }
  if (room_.empty()) return;
  rejoin_id_ = "back-" + std::to_string(next_id_++);
  if (!spectating_ && !token_.empty()) {
    rejoining_ =
        link_.send(proto::encode(proto::Rejoin{room_, token_}, rejoin_id_));
  } else if (spectating_) {
    rejoining_ = link_.send(proto::encode(proto::Spectate{room_}, rejoin_id_));
  }
}

std::optional<Session::Event> Session::poll(std::chrono::milliseconds timeout) {
  if (!unread_.empty()) {
    json m = std::move(unread_.front());
    unread_.pop_front();
    return take(Event{Link::Kind::message, std::move(m), {}, false});
  }
  auto e = link_.poll(timeout);
  if (!e) return std::nullopt;
  if (e->kind == Link::Kind::message) {
    auto read = updates_.read(std::move(e->message));
    if (read.sync) {
      sync_id_ = "sync-" + std::to_string(next_id_++);
      link_.send(proto::encode(proto::Sync{*read.sync}, sync_id_));
    }
    if (read.messages.empty()) return std::nullopt;
    unread_.assign(std::make_move_iterator(read.messages.begin() + 1),
                   std::make_move_iterator(read.messages.end()));
    e->message = std::move(read.messages.front());
  }
  return take(Event{e->kind, std::move(e->message), std::move(e->why), false});
}

// Takes note of one event from the link (or one message of an update frame) and returns it.
Session::Event Session::take(Event out) {
  switch (out.kind) {
    case Link::Kind::connected:
      updates_.reset();
      unread_.clear();
      greet();
      break;
    case Link::Kind::lost:
    case Link::Kind::failed:
      greeted_ = false;
      rejoining_ = false;
      break;
    case Link::Kind::message: {
      const json& id = field(out.message, "id");
      out.own = id.is_string() &&
                (id == hello_id_ || id == games_id_ || id == rejoin_id_ || id == sync_id_);
      note(out.message, out.own);
      break;
    }
  }
  return out;
}

void Session::note(const json& m, bool own) {
  const std::string type = m.value("type", "");
  const json& id = field(m, "id");
  if (type == "welcome" && id == hello_id_) {
    server_name_ = m.value("server", "");
    name_ = m.value("name", name_);
    after_welcome();
    return;
  }
  if (type == "games" && id == games_id_) {
    games_ = field(m, "games");
    return;
  }
  if (own && id == rejoin_id_ && type != "joined" && type != "spectating") {
    rejoining_ = false;
    // The seat could not be taken back: the room is gone, or the token no longer counts.
    if (type == "error") {
      const std::string code = m.value("code", "");
      if (code == "no_such_room" || code == "bad_token") seats_.forget(room_);
      clear_room();
    }
    return;
  }
  if (type == "joined" || type == "spectating") {
    if (id == rejoin_id_) rejoining_ = false;
    const std::string room = m.value("room", "");
    if (room != room_) state_ = nullptr;
    room_ = room;
    spectating_ = type == "spectating";
    seat_ = spectating_ ? -1 : m.value("seat", -1);
    token_ = spectating_ ? "" : m.value("token", "");
    game_over_ = false;
    game_noted_ = false;
    if (!spectating_ && !token_.empty()) {
      HeldSeat held;
      if (auto old = seats_.get(room_); old && old->server == endpoint().text()) held = *old;
      held.room = room_;
      held.server = endpoint().text();
      held.token = token_;
      held.seat = seat_;
      held.name = name_;
      if (held.since == 0) held.since = static_cast<std::int64_t>(std::time(nullptr));
      if (!pending_create_id_.empty() && id == pending_create_id_) {
        held.game = pending_create_.value("game", "");
        held.private_room = pending_create_.value("private", false);
      }
      seats_.put(held);
    }
    return;
  }
  if (type == "state" && m.value("room", "") == room_) {
    state_ = m;
    const bool over = m.value("status", "") == "over";
    // The seat file learns the room's game from its first state, and that it ended.
    if (!spectating_ && !game_noted_) {
      game_noted_ = true;
      auto held = seats_.get(room_);
      if (held && held->game.empty() && field(m, "game").is_string()) {
        held->game = field(m, "game").get<std::string>();
        seats_.put(*held);
      }
    }
    if (over && !game_over_ && !spectating_) seats_.mark_over(room_);
    if (over) game_over_ = true;
    return;
  }
  if (type == "game_over" && m.value("room", "") == room_) {
    if (!game_over_ && !spectating_) seats_.mark_over(room_);
    game_over_ = true;
    return;
  }
  if (type == "left" || type == "room_closed") {
    // A closed room is gone; a seat left before the start is free again.
    const bool waiting = state_.is_object() && state_.value("status", "") == "waiting";
    if (type == "room_closed" || (waiting && !spectating_)) seats_.forget(m.value("room", ""));
    if (m.value("room", "") == room_ || room_.empty()) clear_room();
    return;
  }
  if (type == "error" && m.value("code", "") == "replaced") {
    clear_room();
    return;
  }
}

}  // namespace campfire::cli
