#include "server/websocket_session.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <cstdint>
#include <mutex>
#include <type_traits>

#include "engine/core/match.hpp"
#include "protocol/messages.hpp"
#include "protocol/requests.hpp"
#include "server/websocket_forwarded.hpp"

namespace campfire::server {

using namespace std::chrono_literals;
using protocol::ErrorCode;
namespace message = protocol::message;

namespace {
constexpr int kViolationsBeforeClose = 50;
// What the first read of a message may take. The read waits with its buffer ready, so an idle
// connection holds this much (a whole TCP frame's worth, 1536 bytes, by default); a longer
// message's rest is read once its header has said how long it is.
constexpr std::size_t kFirstRead = 128;
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
    : RoomClient(ctx, ticket->address()),
      ws_(std::in_place_index<0>, std::move(socket)),
      ticket_(std::move(ticket)),
      messages_(ctx.config.message_rate(), TokenBucket::Clock::now()) {
  with_ws([&](auto& ws) { ws.next_layer().count_writes(&ctx_.metrics.socket_writes()); });
}

WebSocketSession::WebSocketSession(TlsStream&& stream, ServerContext& ctx,
                                   std::unique_ptr<ServerContext::Ticket> ticket)
    : RoomClient(ctx, ticket->address()),
      ws_(std::in_place_index<1>, std::move(stream)),
      ticket_(std::move(ticket)),
      messages_(ctx.config.message_rate(), TokenBucket::Clock::now()) {
  with_ws([&](auto& ws) { ws.next_layer().count_writes(&ctx_.metrics.socket_writes()); });
}

WebSocketSession::~WebSocketSession() {
  if (forwarded_) ctx_.forwarding->detach(forwarded_->conn);
  ctx_.untrack(this);
}

void WebSocketSession::run(http::request<http::string_body> upgrade) {
  // The stream times the handshake (and a closing handshake) itself. Its idle timeout would be
  // a wait pending on every connection: the server's one sweep pings a silent peer and drops
  // one that says nothing, not even a pong (see check_silence).
  websocket::stream_base::timeout timeouts;
  timeouts.handshake_timeout = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
      std::chrono::duration<double>(ctx_.config.handshake_timeout_s));
  timeouts.idle_timeout = websocket::stream_base::none();
  timeouts.keep_alive_pings = false;
  with_ws([&](auto& ws) {
    ws.set_option(timeouts);
    // A pong (or a ping) from the peer is hearing from it.
    ws.control_callback([this](websocket::frame_type, beast::string_view) { heard(); });
    ws.set_option(websocket::stream_base::decorator(
        [](websocket::response_type& res) { res.set(http::field::server, kServerName); }));
    ws.read_message_max(ctx_.config.max_frame_bytes);
    ws.auto_fragment(false);
  });
  ctx_.track(shared_from_this(), *this);
  with_ws([&](auto& ws) {
    ws.async_accept(upgrade,
                    beast::bind_front_handler(&WebSocketSession::on_accept, shared_from_this()));
  });
}

void WebSocketSession::on_accept(beast::error_code ec) {
  if (ec) return fail(ec, "accept");
  heard();
  do_read();
}

void WebSocketSession::do_read() {
  // Into plain buffers, not the dynamic buffer: that read wraps this one in a second operation,
  // and the pending read is what every idle connection holds.
  with_ws([&](auto& ws) {
    ws.async_read_some(
        buffer_.prepare(kFirstRead),
        beast::bind_front_handler(&WebSocketSession::on_read_start, shared_from_this()));
  });
}

void WebSocketSession::on_read_start(beast::error_code ec, std::size_t bytes) {
  buffer_.commit(bytes);
  if (!ec) heard();
  if (ec || with_ws([](auto& ws) { return ws.is_message_done(); })) return on_read(ec, bytes);
  // The message's size limit counts the whole message, these first bytes included.
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
  // Keep idle connections small: a buffer grown past the first read's size is given back.
  if (buffer_.capacity() > kFirstRead) buffer_.shrink_to_fit();
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
  // The answers to a rejoin this node made for its player when the room moved are not the
  // player's to see (the state that follows is).
  if (forwarded_ && forwarded_->move_replies > 0 &&
      frame->find(kMoveReplyMark) != std::string::npos) {
    move_reply(*frame);
    return true;
  }
  if (forwarded_ && forwarded_->resync_replies > 0 &&
      frame->find(kResyncReplyMark) != std::string::npos) {
    --forwarded_->resync_replies;
    return true;
  }
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
  if (forwarded_) {
    // Every node holding a proxy of this connection lets it go (the room's node tells the room).
    for (const std::string& node : forwarded_->proxies) {
      ctx_.forwarding->gone(node, forwarded_->conn, std::string());
    }
    forwarded_->proxies.clear();
    forwarded_->patience.cancel();
    forwarded_->move_timer.cancel();
    if (forwarded_->moving) ctx_.forwarding->follow(room_code_, forwarded_->conn, false);
    forwarded_->moving = false;
    if (!forwarded_->node.empty()) {
      forwarded_->node.clear();
      room_code_.clear();
    }
  }
  if (room_code_.empty()) return;
  if (auto room = ctx_.lobby.find(room_code_)) room->disconnected(shared_from_this());
  room_code_.clear();
}

void WebSocketSession::heard() {
  heard_.store(std::chrono::steady_clock::now().time_since_epoch().count(),
               std::memory_order_relaxed);
}

void WebSocketSession::check_silence(std::chrono::steady_clock::time_point now) {
  // Most connections are not due: they are looked at without a post.
  const std::int64_t last = heard_.load(std::memory_order_relaxed);
  if (last == 0) return;  // the handshake has its own timeout
  const auto quiet = now - std::chrono::steady_clock::time_point(
                               std::chrono::steady_clock::duration(last));
  const auto idle = std::chrono::duration<double>(ctx_.config.idle_timeout_s);
  if (quiet < idle / 2) return;
  boost::asio::post(executor(), [self = shared_from_this(), now] { self->silence(now); });
}

void WebSocketSession::silence(std::chrono::steady_clock::time_point now) {
  if (closed_ || closing_) return;
  const auto quiet = now - std::chrono::steady_clock::time_point(std::chrono::steady_clock::duration(
                               heard_.load(std::memory_order_relaxed)));
  const auto idle = std::chrono::duration<double>(ctx_.config.idle_timeout_s);
  if (quiet >= idle) {
    // Not even the pong came back: the peer is gone (no close handshake with a dead peer).
    spdlog::debug("{}: silent for {:.1f} s, closing", ticket_->address(),
                  std::chrono::duration<double>(quiet).count());
    closed_ = true;
    return close_socket();
  }
  if (quiet < idle / 2 || pinging_) return;
  pinging_ = true;
  with_ws([&](auto& ws) {
    ws.async_ping({}, [self = shared_from_this()](beast::error_code) { self->pinging_ = false; });
  });
}

void WebSocketSession::close_socket() {
  // The frame being written must outlive its write; the rest can go now.
  if (writing_) {
    queue_.erase(std::next(queue_.begin()), queue_.end());
  } else {
    queue_.clear();
  }
  with_ws([](auto& ws) {
    beast::error_code ignored;
    auto& lowest = beast::get_lowest_layer(ws);
    if constexpr (std::is_same_v<std::decay_t<decltype(lowest)>, tcp::socket>) {
      lowest.shutdown(tcp::socket::shutdown_both, ignored);
      lowest.close(ignored);
    } else {
      lowest.socket().shutdown(tcp::socket::shutdown_both, ignored);
      lowest.close();
    }
  });
}

void WebSocketSession::drop(const char* why) {
  if (closed_) return;
  spdlog::warn("{}: dropping connection ({})", ticket_->address(), why);
  closed_ = true;
  // Closing the socket ends the pending read, which tells the room; the seat stays.
  close_socket();
}

void WebSocketSession::fail(beast::error_code ec, const char* what) {
  if (ec == boost::asio::error::operation_aborted || ec == websocket::error::closed ||
      ec == boost::asio::error::eof || ec == boost::asio::error::connection_reset) {
    return;
  }
  spdlog::debug("{}: {}: {}", ticket_->address(), what, ec.message());
}

}  // namespace campfire::server
