#include "server/websocket_session.hpp"

#include <spdlog/spdlog.h>

#include <array>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <cstdint>
#include <mutex>

#include "engine/core/match.hpp"
#include "protocol/messages.hpp"
#include "protocol/requests.hpp"

namespace campfire::server {

using protocol::ErrorCode;
namespace message = protocol::message;

namespace {
constexpr int kViolationsBeforeClose = 50;
const char* kServerName = "campfire 0.1.0";

// Guards the frames other strands hand a connection. Connections share a few locks: a mutex of
// each connection's own would add 40 bytes to every idle connection, and the lock is held only
// to move a pointer.
std::mutex& incoming_lock(const void* session) {
  static std::array<std::mutex, 64> locks;
  return locks[(reinterpret_cast<std::uintptr_t>(session) >> 6) % locks.size()];
}
}  // namespace

WebSocketSession::WebSocketSession(tcp::socket&& socket, ServerContext& ctx,
                                   std::unique_ptr<ServerContext::Ticket> ticket)
    : ws_(std::in_place_index<0>, std::move(socket)),
      ctx_(ctx),
      ticket_(std::move(ticket)),
      messages_(ctx.config.message_rate(), TokenBucket::Clock::now()) {
  with_ws([&](auto& ws) { ws.next_layer().count_writes(&ctx_.metrics.socket_writes()); });
}

WebSocketSession::WebSocketSession(TlsStream&& stream, ServerContext& ctx,
                                   std::unique_ptr<ServerContext::Ticket> ticket)
    : ws_(std::in_place_index<1>, std::move(stream)),
      ctx_(ctx),
      ticket_(std::move(ticket)),
      messages_(ctx.config.message_rate(), TokenBucket::Clock::now()) {
  with_ws([&](auto& ws) { ws.next_layer().count_writes(&ctx_.metrics.socket_writes()); });
}

WebSocketSession::~WebSocketSession() {
  // Rejoins a closed room never answered hold budget: settle them as wrong (they were not
  // shown to be right).
  for (; rejoins_in_flight_ > 0; --rejoins_in_flight_) ctx_.rejoin_done(ticket_->address(), true);
  ctx_.untrack(this);
}

void WebSocketSession::run(http::request<http::string_body> upgrade) {
  // Handshake and idle timeouts with keep-alive pings: a peer that vanished, or one that opens a
  // WebSocket and then says nothing (not even a pong), is closed.
  websocket::stream_base::timeout timeouts;
  timeouts.handshake_timeout = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
      std::chrono::duration<double>(ctx_.config.handshake_timeout_s));
  timeouts.idle_timeout = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
      std::chrono::duration<double>(ctx_.config.idle_timeout_s));
  timeouts.keep_alive_pings = true;
  with_ws([&](auto& ws) {
    ws.set_option(timeouts);
    ws.set_option(websocket::stream_base::decorator(
        [](websocket::response_type& res) { res.set(http::field::server, kServerName); }));
    ws.read_message_max(ctx_.config.max_frame_bytes);
    ws.auto_fragment(false);
  });
  std::weak_ptr<WebSocketSession> weak = shared_from_this();
  ctx_.track(shared_from_this(), [weak] {
    if (auto self = weak.lock()) self->go_away();
  });
  with_ws([&](auto& ws) {
    ws.async_accept(upgrade,
                    beast::bind_front_handler(&WebSocketSession::on_accept, shared_from_this()));
  });
}

void WebSocketSession::on_accept(beast::error_code ec) {
  if (ec) return fail(ec, "accept");
  do_read();
}

void WebSocketSession::do_read() {
  with_ws([&](auto& ws) {
    ws.async_read(buffer_,
                  beast::bind_front_handler(&WebSocketSession::on_read, shared_from_this()));
  });
}

void WebSocketSession::on_read(beast::error_code ec, std::size_t) {
  if (ec) {
    if (ec == websocket::error::message_too_big) {
      spdlog::warn("{}: frame over {} bytes, closing", ticket_->address(),
                   ctx_.config.max_frame_bytes);
    }
    closed_ = true;
    tell_room_gone();
    return fail(ec, "read");
  }
  if (!with_ws([](auto& ws) { return ws.got_text(); })) {
    error(nullptr, ErrorCode::kBadJson, "frames must be text frames holding JSON");
  } else {
    const auto data = buffer_.cdata();
    handle(std::string_view(static_cast<const char*>(data.data()), data.size()));
  }
  buffer_.consume(buffer_.size());
  // Keep idle connections small: give back a buffer grown by one large message.
  if (buffer_.capacity() > 8192) buffer_.shrink_to_fit();
  if (!closed_ && !closing_) do_read();
}

bool WebSocketSession::allow_message() {
  return messages_.take(ctx_.config.message_rate(), TokenBucket::Clock::now());
}

void WebSocketSession::handle(std::string_view text) {
  if (!allow_message()) {
    if (++violations_ >= kViolationsBeforeClose) {
      return close_after_flush("flooding", websocket::close_code::policy_error, "flooding");
    }
    json id;
    protocol::decode(text, &id);
    return error(id, ErrorCode::kRateLimited, "too many messages; slow down");
  }
  json id;
  auto r = protocol::decode(text, &id);
  if (!r) return error(id, r.error());
  try {
    dispatch(*r);
  } catch (const std::exception& e) {
    spdlog::error("{}: {} failed: {}", ticket_->address(), r->type, e.what());
    error(r->id, ErrorCode::kInternal, "the server failed on this request");
  }
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

std::shared_ptr<Room> WebSocketSession::member_room(const json& id, const std::string& code) {
  auto normal = protocol::normalize_room_code(code);
  if (!normal || *normal != room_code_) {
    error(id, ErrorCode::kNotInRoom, "you are not in room " + code);
    return nullptr;
  }
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

std::shared_ptr<Room> WebSocketSession::any_room(const json& id, const std::string& code) {
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

void WebSocketSession::not_here(const json& id, const std::string& code,
                                const std::string& otherwise) {
  const auto normal = protocol::normalize_room_code(code);
  if (!ctx_.cluster || !normal) return error(id, ErrorCode::kNoSuchRoom, otherwise);
  const auto where = ctx_.cluster->where(*normal);
  if (!where) return error(id, ErrorCode::kNoSuchRoom, otherwise);
  if (where->unknown) {
    return error(id, ErrorCode::kUnavailable,
                 "this node cannot reach the cluster's store to find room " + *normal +
                     "; try again in a moment");
  }
  if (where->mine) {
    return error(id, ErrorCode::kUnavailable,
                 "room " + *normal + " is paused: this node cannot act for it now (it lost "
                 "contact with the cluster's store); try again in a moment");
  }
  if (where->alive) {
    return error(id, ErrorCode::kRoomElsewhere,
                 "room " + *normal + " is served by node " + where->node +
                     (where->advertise.empty() ? std::string()
                                               : " at " + where->advertise + "; connect there"));
  }
  error(id, ErrorCode::kUnavailable,
        "room " + *normal + " was served by node " + where->node +
            ", which stopped answering; another node takes it over within seconds: try again "
            "then");
}

void WebSocketSession::entered(const std::string& room) {
  boost::asio::post(executor(), [self = shared_from_this(), room] {
    // A connection is in one room at a time: entering another leaves the first.
    if (!self->room_code_.empty() && self->room_code_ != room) {
      if (auto old = self->ctx_.lobby.find(self->room_code_)) {
        old->leave(self, nullptr, false);
      }
    }
    self->room_code_ = room;
  });
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
  reply(id, message::welcome(kServerName, name_, m.updates));
  if (renamed && !room_code_.empty()) {
    if (auto room = ctx_.lobby.find(room_code_)) room->rename(shared_from_this(), name_);
  }
}

void WebSocketSession::on(protocol::Ping&, const json& id) {
  reply(id, message::pong());
}

void WebSocketSession::on(protocol::ListGames&, const json& id) {
  reply(id, message::games(json::parse(ctx_.lobby.games_json())));
}

void WebSocketSession::on(protocol::ListRooms&, const json& id) {
  reply(id, message::rooms(ctx_.list_rooms()));
}

void WebSocketSession::on(protocol::CreateRoom& m, const json& id) {
  if (ctx_.draining) {
    return error(id, ErrorCode::kUnavailable, "the server is restarting; try again in a moment");
  }
  auto room = ctx_.lobby.create(m);
  if (!room) return error(id, room.error());
  // Either reply waits in the room until its creation is in the journal.
  if (!m.join) return (*room)->created(shared_from_this(), id);
  (*room)->join(shared_from_this(), name_, id, 0);
}

void WebSocketSession::on(protocol::Join& m, const json& id) {
  if (auto room = any_room(id, m.room)) room->join(shared_from_this(), name_, id, m.seat);
}

void WebSocketSession::on(protocol::Rejoin& m, const json& id) {
  auto room = any_room(id, m.room);
  if (!room) return;
  // Runs at once while the address has budget left; otherwise once the rejoins holding it are
  // answered.
  ctx_.ask_rejoin(ticket_->address(), [self = shared_from_this(), room, id, name = name_,
                                       token = std::move(m.token)](bool allowed) {
    boost::asio::dispatch(self->executor(), [self, room, id, name, token, allowed] {
      if (!allowed) {
        return self->error(id, ErrorCode::kRateLimited,
                           "too many wrong tokens from your address; wait");
      }
      if (self->closed_) return self->ctx_.rejoin_done(self->ticket_->address(), false);
      ++self->rejoins_in_flight_;
      room->rejoin(self, name, id, token);
    });
  });
}

void WebSocketSession::on(protocol::Spectate& m, const json& id) {
  if (auto room = any_room(id, m.room)) room->spectate(shared_from_this(), id);
}

void WebSocketSession::on(protocol::Leave& m, const json& id) {
  auto room = member_room(id, m.room);
  if (!room) return;
  room_code_.clear();
  room->leave(shared_from_this(), id, true);
}

void WebSocketSession::on(protocol::AddBot& m, const json& id) {
  if (auto room = member_room(id, m.room)) {
    room->add_bot(shared_from_this(), id, m.seat, m.strategy.value_or("basic"));
  }
}

void WebSocketSession::on(protocol::Start& m, const json& id) {
  if (auto room = member_room(id, m.room)) room->start(shared_from_this(), id);
}

void WebSocketSession::on(protocol::Act& m, const json& id) {
  if (auto room = member_room(id, m.room)) {
    room->action(shared_from_this(), id, std::move(m.action), m.version);
  }
}

void WebSocketSession::on(protocol::Chat& m, const json& id) {
  if (auto room = member_room(id, m.room)) {
    room->chat(shared_from_this(), id, std::move(m.text), name_);
  }
}

void WebSocketSession::on(protocol::Sync& m, const json& id) {
  if (auto room = member_room(id, m.room)) room->sync(shared_from_this(), id);
}

void WebSocketSession::on(protocol::History& m, const json& id) {
  if (auto room = member_room(id, m.room)) room->history(shared_from_this(), id);
}

void WebSocketSession::on(protocol::Contribute& m, const json& id) {
  if (auto room = member_room(id, m.room)) {
    room->contribute(shared_from_this(), id, std::move(m.entropy));
  }
}

// Frames sent from other strands (rooms) gather in `incoming_` and reach the connection with
// one post, however many arrive before it runs: the frames of one change (the mover's reply,
// events and state) are then written as one burst.
void WebSocketSession::send(Frame frame) {
  {
    std::lock_guard lock(incoming_lock(this));
    incoming_.push_back(std::move(frame));
    if (take_posted_) return;
    take_posted_ = true;
  }
  boost::asio::post(executor(), [self = shared_from_this()] { self->take_incoming(); });
}

void WebSocketSession::take_incoming() {
  std::vector<Frame> frames;
  {
    std::lock_guard lock(incoming_lock(this));
    frames.swap(incoming_);
    take_posted_ = false;
  }
  for (Frame& f : frames) {
    if (!enqueue(std::move(f))) return;
  }
  if (!writing_ && !queue_.empty()) do_write();
}

void WebSocketSession::evicted(const std::string& room) {
  boost::asio::post(executor(), [self = shared_from_this(), room] {
    if (self->room_code_ == room) self->room_code_.clear();
    self->error(nullptr, ErrorCode::kReplaced,
                "your seat in room " + room + " was resumed elsewhere");
  });
}

void WebSocketSession::rejoin_answered(bool resumed) {
  boost::asio::post(executor(), [self = shared_from_this(), resumed] {
    --self->rejoins_in_flight_;
    self->ctx_.rejoin_done(self->ticket_->address(), !resumed);
  });
}

void WebSocketSession::go_away() {
  boost::asio::post(executor(), [self = shared_from_this()] {
    if (self->closed_ || self->closing_) return;
    // Say why in words, then close once that has been written (a write may be in flight).
    self->queue(make_frame(json{{"type", "notice"},
                                {"reason", "restart"},
                                {"text", "the server is restarting; reconnect in a moment"}}
                               .dump()));
    self->close_after_flush("server shutting down", websocket::close_code::service_restart,
                            "server restarting");
  });
}

bool WebSocketSession::enqueue(Frame frame) {
  if (closed_) return false;
  if (queue_.size() >= ctx_.config.max_queued_frames) {
    drop("slow reader");
    return false;
  }
  queue_.push_back(std::move(frame));
  return true;
}

void WebSocketSession::queue(Frame frame) {
  if (enqueue(std::move(frame)) && !writing_) do_write();
}

// The frames a connection owes after one change leave in one write: while more frames wait
// behind the one being written, the stream below the WebSocket gathers them, and the last one
// carries the whole burst to the socket.
void WebSocketSession::do_write() {
  writing_ = true;
  ctx_.metrics.frame_written();
  with_ws([&](auto& ws) {
    ws.next_layer().gather(queue_.size() > 1);
    ws.text(true);
    ws.async_write(boost::asio::buffer(*queue_.front()),
                   beast::bind_front_handler(&WebSocketSession::on_write, shared_from_this()));
  });
}

void WebSocketSession::on_write(beast::error_code ec, std::size_t) {
  writing_ = false;
  if (!queue_.empty()) queue_.pop_front();
  if (ec) return fail(ec, "write");
  if (!queue_.empty() && !closed_) return do_write();
  if (closing_ && !closed_) finish_closing();
}

void WebSocketSession::close_after_flush(const char* why, websocket::close_code code,
                                         const char* reason) {
  if (closing_ || closed_) return;
  if (code == websocket::close_code::policy_error) {
    spdlog::warn("{}: closing connection ({})", ticket_->address(), why);
  }
  closing_ = true;
  close_code_ = code;
  close_reason_ = reason;
  if (!writing_) finish_closing();
}

void WebSocketSession::finish_closing() {
  closed_ = true;
  with_ws([&](auto& ws) {
    ws.async_close(websocket::close_reason(close_code_, close_reason_),
                   [self = shared_from_this()](beast::error_code) { self->tell_room_gone(); });
  });
}

void WebSocketSession::tell_room_gone() {
  if (room_code_.empty()) return;
  if (auto room = ctx_.lobby.find(room_code_)) room->disconnected(shared_from_this());
  room_code_.clear();
}

void WebSocketSession::drop(const char* why) {
  if (closed_) return;
  spdlog::warn("{}: dropping connection ({})", ticket_->address(), why);
  closed_ = true;
  // The frame being written must outlive its write; the rest can go now.
  if (writing_) {
    queue_.erase(std::next(queue_.begin()), queue_.end());
  } else {
    queue_.clear();
  }
  // Closing the socket ends the pending read, which tells the room; the seat stays.
  with_ws([](auto& ws) {
    beast::error_code ignored;
    beast::get_lowest_layer(ws).socket().shutdown(tcp::socket::shutdown_both, ignored);
    beast::get_lowest_layer(ws).close();
  });
}

void WebSocketSession::fail(beast::error_code ec, const char* what) {
  if (ec == boost::asio::error::operation_aborted || ec == websocket::error::closed ||
      ec == boost::asio::error::eof || ec == boost::asio::error::connection_reset) {
    return;
  }
  spdlog::debug("{}: {}: {}", ticket_->address(), what, ec.message());
}

}  // namespace campfire::server
