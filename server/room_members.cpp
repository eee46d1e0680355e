// Room, part three: who is at the table. Joining, rejoining with a token, watching, leaving,
// disconnecting, server bots taking seats, renames and seats given back. Each request runs on
// the room's strand, records the seat in the journal and publishes the change like a move does.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <utility>

#include "protocol/messages.hpp"
#include "server/room.hpp"

namespace campfire::server {

using protocol::ErrorCode;
namespace message = protocol::message;

std::optional<int> Room::seat_of(const Client* c) const {
  return seats_.of(c);
}

bool Room::is_spectator(const Client* c) const {
  return std::any_of(spectators_.begin(), spectators_.end(),
                     [&](const std::weak_ptr<Client>& w) { return w.lock().get() == c; });
}

void Room::take_seat(const std::shared_ptr<Client>& c, int seat, std::string name, const json& id) {
  const std::string token = new_token();
  seats_.seat_player(seat, std::move(name), hash_token(token), c, match_.log().size());
  clocks_.cancel_grace(seat);
  c->entered(code_, token);
  // The seat and its token's hash are durable before the token is handed out.
  record_seat(seat);
  reply(c, id, message::joined(code_, seat, token));
  spdlog::info("room {}: seat {} taken by '{}'", code_, seat, seats_[seat].name);
  changed(nullptr);
}

void Room::forget(const Client* c) {
  updates_.forget(c);
  seats_.forget(c);
  std::erase_if(spectators_, [&](const std::weak_ptr<Client>& w) {
    auto p = w.lock();
    return !p || p.get() == c;
  });
}

void Room::resume(const std::shared_ptr<Client>& c, int seat, const std::string& token,
                  std::string name, const json& id) {
  auto previous = seats_[seat].client.lock();
  if (previous && previous != c) {
    previous->evicted(code_);
    updates_.forget(previous.get());
  }
  forget(c.get());
  // Back from being away: the bot that kept the seat warm steps aside.
  seats_.come_back(seat, c);
  clocks_.cancel_grace(seat);
  c->entered(code_, token);
  Events events;
  rename_seat(seat, std::move(name), events);
  reply(c, id, message::joined(code_, seat, token));
  spdlog::info("room {}: seat {} resumed by '{}'", code_, seat, seats_[seat].name);
  changed(&events.list());
}

void Room::join(std::shared_ptr<Client> c, std::string name, json id, std::optional<int> seat) {
  on_strand([this, c = std::move(c), name = std::move(name), id = std::move(id), seat]() mutable {
    // The connection's own seat, whose token it keeps (a connection forwarded from another node
    // does): its join came again because the answer to the first was lost on the way between the
    // nodes, and it is answered as the first time, seat and token.
    const std::string own = c->seat_token(code_);
    if (const std::optional<int> s = seats_.by_token(own)) {
      return resume(c, *s, own, std::move(name), id);
    }
    if (auto held = seat_of(c.get())) {
      return fail(c, id, ErrorCode::kRoomFull,
                  "you already hold seat " + std::to_string(*held + 1) + " of this room");
    }
    if (status_ != RoomStatus::kWaiting) {
      return fail(c, id, ErrorCode::kAlreadyStarted, "the game has started; ask for a rejoin link");
    }
    if (seat && (*seat < 0 || *seat >= match_.seats())) {
      return fail(c, id, ErrorCode::kRoomFull,
                  "\"seat\" is 0 to " + std::to_string(match_.seats() - 1) +
                      " in this room (seats are counted from 0 here)");
    }
    const std::optional<int> free = seats_.first_empty(seat);
    if (!free) {
      return fail(c, id, ErrorCode::kRoomFull, seat ? "that seat is taken" : "the room is full");
    }
    forget(c.get());
    take_seat(c, *free, std::move(name), id);
  });
}

void Room::rejoin(std::shared_ptr<Client> c, std::string name, json id, std::string token) {
  on_strand([this, c = std::move(c), name = std::move(name), id = std::move(id),
             token = std::move(token)]() mutable {
    if (const std::optional<int> s = seats_.by_token(token)) {
      resume(c, *s, token, std::move(name), id);
      c->rejoin_answered(true);
      return;
    }
    fail(c, id, ErrorCode::kBadToken, "that token does not belong to a seat of room " + code_);
    c->rejoin_answered(false);
  });
}

void Room::spectate(std::shared_ptr<Client> c, json id) {
  on_strand([this, c = std::move(c), id = std::move(id)] {
    forget(c.get());
    spectators_.push_back(c);
    c->entered(code_, std::string());
    reply(c, id, message::spectating(code_));
    send_state(c, -1);
    update_summary();
  });
}

void Room::leave(std::shared_ptr<Client> c, json id, bool send_reply) {
  on_strand([this, c = std::move(c), id = std::move(id), send_reply] {
    const auto seat = seat_of(c.get());
    const bool spectator = is_spectator(c.get());
    if (!seat && !spectator) {
      if (send_reply) fail(c, id, ErrorCode::kNotInRoom, "you are not in room " + code_);
      return;
    }
    forget(c.get());
    if (seat && status_ == RoomStatus::kWaiting) {
      free_seat(*seat);
    } else if (seat && status_ == RoomStatus::kPlaying) {
      arm_grace(*seat);
    }
    if (send_reply) reply(c, id, message::left(code_));
    if (seat) {
      changed(nullptr);
    } else {
      update_summary();
    }
  });
}

void Room::disconnected(std::shared_ptr<Client> c) {
  on_strand([this, c = std::move(c)] {
    const auto seat = seat_of(c.get());
    forget(c.get());
    // The seat waits for its player (a reload, a flaky phone): before the start it is given
    // back after the grace period; during the game a bot may take it over then.
    if (seat && status_ != RoomStatus::kOver) arm_grace(*seat);
    if (seat) {
      spdlog::info("room {}: seat {} disconnected", code_, *seat);
      changed(nullptr);
    } else {
      update_summary();
    }
  });
}

void Room::add_bot(std::shared_ptr<Client> c, json id, std::optional<int> seat,
                   std::string strategy) {
  on_strand([this, c = std::move(c), id = std::move(id), seat, strategy = std::move(strategy)] {
    if (!seat_of(c.get())) {
      return fail(c, id, ErrorCode::kNotSeated, "only seated players may add bots");
    }
    if (status_ != RoomStatus::kWaiting) {
      return fail(c, id, ErrorCode::kAlreadyStarted, "the game has started");
    }
    auto bot = bots_.make_bot(strategy);
    if (!bot) return fail(c, id, ErrorCode::kBadRequest, "unknown bot strategy '" + strategy + "'");
    const std::optional<int> free = seats_.first_empty(seat);
    if (!free) {
      return fail(c, id, ErrorCode::kRoomFull, seat ? "that seat is taken" : "the room is full");
    }
    seats_.seat_bot(*free, "Bot " + std::to_string(*free + 1), strategy, std::move(bot));
    record_seat(*free);
    reply(c, id, message::ok());
    changed(nullptr);
  });
}

void Room::rename(std::shared_ptr<Client> c, std::string name) {
  on_strand([this, c = std::move(c), name = std::move(name)]() mutable {
    if (auto seat = seat_of(c.get())) {
      Events events;
      if (rename_seat(*seat, std::move(name), events)) changed(&events.list());
    }
  });
}

bool Room::rename_seat(int seat, std::string name, Events& events) {
  const std::string before = seats_[seat].name;
  // Moves already made keep the old name; the new one applies from the next move.
  if (!seats_.rename(seat, std::move(name), match_.log().size())) return false;
  record_seat(seat);
  if (status_ != RoomStatus::kWaiting) {
    events.emit(Audience::all(), [&] {
      return json{{"type", "renamed"},
                  {"seat", seat},
                  {"from", before},
                  {"text", literal(before) + " is now called {seat:" + std::to_string(seat) + "}"}};
    });
  }
  return true;
}

void Room::free_seat(int seat) {
  clocks_.cancel_grace(seat);
  seats_.free(seat);
  // A contribution belongs to the player who gave it.
  if (fairness_) fairness_->contributions[static_cast<std::size_t>(seat)].clear();
  fairness_changed();
  record_seat(seat);
}

}  // namespace campfire::server
