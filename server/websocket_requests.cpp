// A connection's requests: the rate limit, decoding, and the handlers of the requests that need
// no room (hello, ping, the lists, creating a room). The room's own requests are in
// room_client.cpp, forwarding to other nodes in websocket_forwarding.cpp, and the wire itself
// (frames, writes, closing) in websocket_session.cpp.
#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>

#include "protocol/messages.hpp"
#include "protocol/requests.hpp"
#include "server/version.hpp"
#include "server/websocket_forwarded.hpp"
#include "server/websocket_session.hpp"

namespace campfire::server {

using protocol::ErrorCode;
namespace message = protocol::message;

namespace {
// A client over its message rate is answered with errors; this many of them close it.
constexpr int kViolationsBeforeClose = 50;
}  // namespace

bool WebSocketSession::allow_message() {
  return messages_.take(ctx_.config.message_rate(), TokenBucket::Clock::now());
}

void WebSocketSession::handle(std::string_view text) {
  if (!allow_message()) {
    if (++violations_ >= kViolationsBeforeClose) {
      return close_after_flush("flooding", ws::kPolicy, "flooding");
    }
    json id;
    protocol::decode(text, &id);
    return error(id, ErrorCode::kRateLimited, "too many messages; slow down");
  }
  json id;
  auto r = protocol::decode(text, &id);
  if (!r) return error(id, r.error());
  current_text_ = text;
  current_type_ = r->type;
  try {
    dispatch(*r);
  } catch (const std::exception& e) {
    spdlog::error("{}: {} failed: {}", ticket_->address(), r->type, e.what());
    error(r->id, ErrorCode::kInternal, "the server failed on this request");
  }
  current_text_ = {};
  current_type_ = {};
}

void WebSocketSession::reply(const json& id, json message) {
  queue(make_frame(message::with_id(std::move(message), id)
                       .dump(-1, ' ', false, json::error_handler_t::replace)));
}

void WebSocketSession::error(const json& id, protocol::ErrorCode code, const std::string& message) {
  ctx_.metrics.error_sent(protocol::to_string(code));
  queue(make_frame(protocol::error_frame(id, code, message)));
}

void WebSocketSession::error(const json& id, const Error& why) {
  ctx_.metrics.error_sent(why.code);
  queue(make_frame(protocol::error_frame(id, why)));
}

// Before hello only hello and ping are read; then each request is checked whole into its typed
// value (protocol/requests.hpp) and handed to its handler below.
void WebSocketSession::dispatch(protocol::Request& r) {
  if (name_.empty() && r.type != "hello" && r.type != "ping") {
    return error(r.id, ErrorCode::kHelloFirst, "send hello first");
  }
  auto request = protocol::parse_request(r);
  if (!request) return error(r.id, request.error());
  std::visit([&](auto& m) { on(m, r.id); }, *request);
}

void WebSocketSession::on(protocol::Hello& m, const json& id) {
  const bool renamed = !name_.empty() && name_ != m.name;
  name_ = std::move(m.name);
  updates_.store(m.updates, std::memory_order_relaxed);
  texts_.store(m.texts, std::memory_order_relaxed);
  reply(id, message::welcome(kServerName, name_, m.updates, m.texts));
  if (renamed && !room_code_.empty()) {
    // A room elsewhere learns the new name from the hello itself.
    if (forwarded_ && !forwarded_->node.empty()) {
      forward(forwarded_->node, room_code_, nullptr, std::string(current_text_));
    } else if (auto room = ctx_.lobby.find(room_code_)) {
      room->rename(shared_from_this(), name_);
    }
  }
}

void WebSocketSession::on(protocol::Ping&, const json& id) {
  reply(id, message::pong());
}

void WebSocketSession::on(protocol::ListGames&, const json& id) {
  reply(id, message::games(json::parse(ctx_.lobby.games_json())));
}

void WebSocketSession::on(protocol::ListRooms&, const json& id) {
  if (!ctx_.cluster) return reply(id, message::rooms(ctx_.lobby.list_rooms()));
  // Every node's rooms, from Redis without blocking; this node's alone if it does not answer.
  ctx_.list_rooms([self = shared_from_this(), id](json rooms) {
    boost::asio::post(self->executor(), [self, id, rooms = std::move(rooms)]() mutable {
      self->reply(id, message::rooms(std::move(rooms)));
    });
  });
}

void WebSocketSession::on(protocol::CreateRoom& m, const json& id) {
  if (ctx_.draining) {
    return error(id, ErrorCode::kUnavailable, "the server is restarting; try again in a moment");
  }
  // In a cluster the room's code is claimed in Redis first: the answer comes later, on the
  // link's thread, and continues on this connection's own.
  ctx_.lobby.create(m, [self = shared_from_this(), id,
                        join = m.join](Expected<std::shared_ptr<Room>> room) mutable {
    auto go_on = [self, id, join, room = std::move(room)]() {
      if (!room) return self->error(id, room.error());
      // Either reply waits in the room until its creation is in the journal.
      if (!join) return (*room)->created(self, id);
      (*room)->join(self, self->name_, id, 0);
    };
    if (!self->ctx_.cluster) return go_on();
    boost::asio::post(self->executor(), std::move(go_on));
  });
}

}  // namespace campfire::server
