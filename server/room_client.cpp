#include "server/room_client.hpp"

#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>

#include "protocol/protocol.hpp"

namespace campfire::server {

using protocol::ErrorCode;

RoomClient::RoomClient(ServerContext& ctx, std::string address)
    : ctx_(ctx), address_(std::move(address)) {}

RoomClient::~RoomClient() {
  // Rejoins a closed room never answered hold budget: settle them as wrong (they were not
  // shown to be right).
  for (; rejoins_in_flight_ > 0; --rejoins_in_flight_) ctx_.rejoin_done(address_, true);
}

std::shared_ptr<Room> RoomClient::member_room(const json& id, const std::string& code) {
  auto normal = protocol::normalize_room_code(code);
  if (!normal || *normal != room_code_) {
    // Not a member here; a request the room's node alone can judge goes there all the same.
    if (normal && elsewhere(id, *normal)) return nullptr;
    error(id, ErrorCode::kNotInRoom, "you are not in room " + code);
    return nullptr;
  }
  if (elsewhere(id, room_code_)) return nullptr;
  auto room = ctx_.lobby.find(room_code_);
  if (!room) {
    not_here(id, room_code_, "room " + code + " no longer exists");
    return nullptr;
  }
  if (auto why = room->refusal(); !why.empty()) {
    error(id, ErrorCode::kUnavailable, why);
    return nullptr;
  }
  return room;
}

std::shared_ptr<Room> RoomClient::any_room(const json& id, const std::string& code) {
  if (auto normal = protocol::normalize_room_code(code); normal && elsewhere(id, *normal)) {
    return nullptr;
  }
  auto room = ctx_.lobby.find(code);
  if (!room) {
    not_here(id, code, "there is no room " + code);
    return nullptr;
  }
  if (auto why = room->refusal(); !why.empty()) {
    error(id, ErrorCode::kUnavailable, why);
    return nullptr;
  }
  return room;
}

void RoomClient::refuse_missing(const json& id, const std::string& code,
                                const std::string& otherwise) {
  const auto normal = protocol::normalize_room_code(code);
  if (!ctx_.cluster || !normal) return error(id, ErrorCode::kNoSuchRoom, otherwise);
  ctx_.cluster->locate(*normal, [self = self(), id, code = *normal,
                                 otherwise](std::optional<ClusterNode::Whereabouts> where) {
    boost::asio::post(self->strand(), [self, id, code, otherwise, where = std::move(where)] {
      self->refuse(id, code, otherwise, where);
    });
  });
}

void RoomClient::refuse(const json& id, const std::string& code, const std::string& otherwise,
                        const std::optional<ClusterNode::Whereabouts>& where) {
  if (!where) return error(id, ErrorCode::kNoSuchRoom, otherwise);
  if (where->unknown) {
    return error(id, ErrorCode::kUnavailable,
                 "this node cannot reach the cluster's store to find room " + code +
                     "; try again in a moment");
  }
  if (where->mine) {
    return error(id, ErrorCode::kUnavailable,
                 "room " + code +
                     " is not ready on this node yet (it is being taken over, or "
                     "this node lost contact with the cluster's store); try again in a moment");
  }
  if (where->alive) {
    return error(id, ErrorCode::kRoomElsewhere,
                 "room " + code + " is served by node " + where->node +
                     (where->advertise.empty() ? std::string()
                                               : " at " + where->advertise + "; connect there"));
  }
  error(id, ErrorCode::kUnavailable,
        "room " + code + " was served by node " + where->node +
            ", which stopped answering; another node takes it over within seconds: try again "
            "then");
}

void RoomClient::left_for_another(const std::string& old) {
  if (auto room = ctx_.lobby.find(old)) room->leave(self(), nullptr, false);
}

void RoomClient::entered(const std::string& room, const std::string& token) {
  boost::asio::post(strand(), [self = self(), room, token] {
    // A connection is in one room at a time: entering another leaves the first.
    if (!self->room_code_.empty() && self->room_code_ != room) {
      self->left_for_another(self->room_code_);
    }
    self->room_code_ = room;
    self->after_entered(room, token);
  });
}

void RoomClient::evicted(const std::string& room) {
  boost::asio::post(strand(), [self = self(), room] {
    if (self->room_code_ == room) self->room_code_.clear();
    self->after_evicted(room);
  });
}

void RoomClient::rejoin_answered(bool resumed) {
  boost::asio::post(strand(), [self = self(), resumed] {
    --self->rejoins_in_flight_;
    self->ctx_.rejoin_done(self->address_, !resumed);
  });
}

void RoomClient::on(protocol::Join& m, const json& id) {
  if (auto room = any_room(id, m.room)) room->join(self(), name_, id, m.seat);
}

void RoomClient::on(protocol::Rejoin& m, const json& id) {
  auto room = any_room(id, m.room);
  if (!room) return;
  // Runs at once while the address has budget left; otherwise once the rejoins holding it are
  // answered.
  ctx_.ask_rejoin(
      address_, [self = self(), room, id, name = name_, token = std::move(m.token)](bool allowed) {
        boost::asio::dispatch(self->strand(), [self, room, id, name, token, allowed] {
          if (!allowed) {
            return self->error(id, ErrorCode::kRateLimited,
                               "too many wrong tokens from your address; wait");
          }
          if (self->gone()) return self->ctx_.rejoin_done(self->address_, false);
          ++self->rejoins_in_flight_;
          room->rejoin(self, name, id, token);
        });
      });
}

void RoomClient::on(protocol::Spectate& m, const json& id) {
  if (auto room = any_room(id, m.room)) room->spectate(self(), id);
}

void RoomClient::on(protocol::Leave& m, const json& id) {
  auto room = member_room(id, m.room);
  if (!room) return;
  room_code_.clear();
  room->leave(self(), id, true);
}

void RoomClient::on(protocol::AddBot& m, const json& id) {
  if (auto room = member_room(id, m.room)) {
    room->add_bot(self(), id, m.seat, m.strategy.value_or("basic"));
  }
}

void RoomClient::on(protocol::Start& m, const json& id) {
  if (auto room = member_room(id, m.room)) room->start(self(), id);
}

void RoomClient::on(protocol::Act& m, const json& id) {
  if (auto room = member_room(id, m.room)) {
    room->action(self(), id, std::move(m.action), m.version);
  }
}

void RoomClient::on(protocol::Chat& m, const json& id) {
  if (auto room = member_room(id, m.room)) room->chat(self(), id, std::move(m.text), name_);
}

void RoomClient::on(protocol::Sync& m, const json& id) {
  if (auto room = member_room(id, m.room)) room->sync(self(), id);
}

void RoomClient::on(protocol::History& m, const json& id) {
  if (auto room = member_room(id, m.room)) room->history(self(), id);
}

void RoomClient::on(protocol::Contribute& m, const json& id) {
  if (auto room = member_room(id, m.room)) room->contribute(self(), id, std::move(m.entropy));
}

}  // namespace campfire::server
