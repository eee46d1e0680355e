#include "server/websocket_session.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <cstdint>
#include <mutex>

#include "engine/core/match.hpp"
#include "protocol/messages.hpp"
#include "protocol/requests.hpp"

namespace campfire::server {

using namespace std::chrono_literals;
using protocol::ErrorCode;
namespace message = protocol::message;

namespace {
constexpr int kViolationsBeforeClose = 50;
const char* kServerName = "campfire 0.1.0";
// How long a request sent to another node waits for that node's receipt before its sender is
// told the node does not answer (pub/sub loses what is sent while a link is down).
constexpr std::chrono::milliseconds kForwardPatience{2500};
// How long a request that reached its room's node may wait for its reply before the sender is
// told to sync: the reply may have been lost on the bus, or its node may have died after taking
// the request. Longer than a journal write can take while Redis restarts.
constexpr std::chrono::milliseconds kReplyPatience{10000};
// How often a connection whose room's node died looks for the room's new owner (the new owner's
// claim on the bus usually comes first).
constexpr std::chrono::milliseconds kMoveRetry{250};
// The id of the rejoin (or spectate) a node makes for its player when the room moves, and how its
// answers are told apart from the frames the player is to see.
const char* kMoveId = "campfire:moved";
constexpr std::string_view kMoveReplyMark = "\"id\":\"campfire:moved\"";
// The id of the sync a node makes for its player when the bus between nodes comes back (frames
// sent while it was down are lost), and how its reply is told apart; the state that follows is
// the player's.
const char* kResyncId = "campfire:resync";
constexpr std::string_view kResyncReplyMark = "\"id\":\"campfire:resync\"";

// Guards the frames other strands hand a connection. Connections share a few locks: a mutex of
// each connection's own would add 40 bytes to every idle connection, and the lock is held only
// to move a pointer.
std::mutex& incoming_lock(const void* session) {
  static std::array<std::mutex, 64> locks;
  return locks[(reinterpret_cast<std::uintptr_t>(session) >> 6) % locks.size()];
}
}  // namespace

// The state of a connection that forwards requests to other nodes.
struct WebSocketSession::Forwarded {
  explicit Forwarded(const boost::asio::any_io_executor& ex) : patience(ex), move_timer(ex) {}

  std::uint64_t conn = 0;         // the connection's number on the bus
  std::string node;               // the node owning room_code_ when it is elsewhere; else empty
  std::string token;              // the seat's token there (empty: a spectator)
  std::set<std::string> proxies;  // the nodes holding a proxy of this connection
  std::int64_t sent = 0;          // requests sent, numbered from 1
  struct Waiting {
    std::int64_t seq;
    std::string node;
    json id;
    std::chrono::steady_clock::time_point until;
    bool received = false;  // its node took it; it waits for its reply (it has an id)
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
  reply(id, message::welcome(kServerName, name_, m.updates));
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

// ---- Rooms of other nodes ----

WebSocketSession::Forwarded& WebSocketSession::forwarded() {
  if (!forwarded_) {
    forwarded_ = std::make_unique<Forwarded>(executor());
    std::weak_ptr<WebSocketSession> weak = shared_from_this();
    forwarded_->conn = ctx_.forwarding->attach(std::move(weak));
  }
  return *forwarded_;
}

bool WebSocketSession::elsewhere(const json& id, const std::string& code) {
  if (!forwarded_ || code != room_code_) return false;
  Forwarded& f = *forwarded_;
  if (f.moving && !f.attempting) {
    error(id, ErrorCode::kUnavailable,
          "room " + code +
              " is moving to another server (its server stopped); you are put back "
              "in it in a moment");
    return true;
  }
  if (f.node.empty()) return false;
  forward(f.node, code, id, std::string(current_text_));
  if (current_type_ == "leave") {
    room_code_.clear();
    f.node.clear();
    f.token.clear();
  }
  return true;
}

void WebSocketSession::not_here(const json& id, const std::string& code,
                                const std::string& otherwise) {
  const auto normal = protocol::normalize_room_code(code);
  if (!ctx_.forwarding || !normal) return refuse_missing(id, code, otherwise);
  // Asked of Redis without blocking; the request goes on to the room's owner once it is known.
  ctx_.cluster->locate(*normal, [self = shared_from_this(), id, code = *normal, otherwise,
                                 text = std::string(current_text_)](
                                    std::optional<ClusterNode::Whereabouts> where) mutable {
    boost::asio::post(self->executor(), [self, id, code, otherwise, text = std::move(text),
                                         where = std::move(where)]() mutable {
      if (self->closed_) return;
      if (where && !where->unknown && !where->mine && where->alive) {
        return self->forward(where->node, code, id, std::move(text));
      }
      self->refuse(id, code, otherwise, where);
    });
  });
}

void WebSocketSession::forward(const std::string& node, const std::string& room, const json& id,
                               std::string text) {
  Forwarded& f = forwarded();
  const std::int64_t seq = ++f.sent;
  f.proxies.insert(node);
  f.waiting.push_back({seq, node, id, std::chrono::steady_clock::now() + kForwardPatience});
  if (f.waiting.size() == 1) arm_patience();
  ctx_.forwarding->request(node, f.conn, seq, room, std::move(text), name_, address_,
                           updates_.load(std::memory_order_relaxed));
}

void WebSocketSession::answered(const std::string& node, std::int64_t received,
                                const std::vector<json>& replied) {
  if (!forwarded_) return;
  auto& waiting = forwarded_->waiting;
  const auto now = std::chrono::steady_clock::now();
  std::erase_if(waiting, [&](Forwarded::Waiting& w) {
    if (w.node != node) return false;
    if (!w.id.is_null() && std::find(replied.begin(), replied.end(), w.id) != replied.end()) {
      return true;
    }
    if (w.received || w.seq > received) return false;
    if (w.id.is_null()) return true;  // nothing to wait for
    w.received = true;
    w.until = now + kReplyPatience;
    return false;
  });
  arm_patience();
}

void WebSocketSession::arm_patience() {
  Forwarded& f = *forwarded_;
  f.patience.cancel();
  if (f.waiting.empty()) return;
  auto first = f.waiting.front().until;
  for (const auto& w : f.waiting) first = std::min(first, w.until);
  f.patience.expires_at(first);
  f.patience.async_wait([self = shared_from_this()](boost::system::error_code ec) {
    if (!ec) self->patience_over();
  });
}

void WebSocketSession::patience_over() {
  if (closed_ || !forwarded_) return;
  auto& waiting = forwarded_->waiting;
  const auto now = std::chrono::steady_clock::now();
  std::vector<Forwarded::Waiting> late;
  std::erase_if(waiting, [&](const Forwarded::Waiting& w) {
    if (w.until > now) return false;
    late.push_back(w);
    return true;
  });
  for (const auto& w : late) {
    if (w.id.is_null()) continue;
    if (w.received) {
      error(w.id, ErrorCode::kUnavailable,
            "the answer from node " + w.node +
                ", which serves the room, was lost on the way; send sync to see whether the "
                "request was applied");
    } else {
      error(w.id, ErrorCode::kUnavailable,
            "node " + w.node +
                ", which serves the room, did not answer in time; try again in a "
                "moment");
    }
  }
  arm_patience();
}

void WebSocketSession::remote_frames(const std::string& node, std::int64_t received,
                                     std::vector<std::string> frames) {
  // The ids of the replies among the frames: a request whose reply has come waits no more.
  std::vector<json> replied;
  for (const std::string& f : frames) {
    if (f.find("\"id\":") == std::string::npos) continue;
    const json m = json::parse(f, nullptr, false);
    if (m.is_object() && m.contains("id")) replied.push_back(m["id"]);
  }
  for (std::string& f : frames) send(make_frame(std::move(f)));
  if (received > 0 || !replied.empty()) {
    boost::asio::post(executor(),
                      [self = shared_from_this(), node, received, replied = std::move(replied)] {
                        self->answered(node, received, replied);
                      });
  }
}

void WebSocketSession::remote_entered(const std::string& node, const std::string& room,
                                      std::string token) {
  boost::asio::post(executor(),
                    [self = shared_from_this(), node, room, token = std::move(token)]() mutable {
                      if (self->closed_) return;
                      Forwarded& f = self->forwarded();
                      const bool moved_here = f.moving && room == self->room_code_;
                      if (!self->room_code_.empty() && self->room_code_ != room) {
                        self->left_for_another(self->room_code_);
                      }
                      self->room_code_ = room;
                      f.node = node;
                      f.token = std::move(token);
                      if (moved_here) self->end_move(true);
                    });
}

void WebSocketSession::remote_evicted(const std::string& node, const std::string& room) {
  boost::asio::post(executor(), [self = shared_from_this(), node, room] {
    if (!self->forwarded_) return;
    Forwarded& f = *self->forwarded_;
    if (self->room_code_ == room && f.node == node) {
      self->room_code_.clear();
      f.node.clear();
      f.token.clear();
    }
    self->after_evicted(room);
  });
}

void WebSocketSession::left_for_another(const std::string& old) {
  if (forwarded_ && !forwarded_->node.empty()) {
    ctx_.forwarding->gone(forwarded_->node, forwarded_->conn, old);
    forwarded_->node.clear();
    forwarded_->token.clear();
    return;
  }
  RoomClient::left_for_another(old);
}

void WebSocketSession::after_entered(const std::string& room, const std::string&) {
  // A room of this node: nothing of it is elsewhere any more.
  if (!forwarded_) return;
  Forwarded& f = *forwarded_;
  const bool moved_here = f.moving && room == room_code_;
  f.node.clear();
  f.token.clear();
  if (moved_here) end_move(true);
}

void WebSocketSession::after_evicted(const std::string& room) {
  error(nullptr, ErrorCode::kReplaced, "your seat in room " + room + " was resumed elsewhere");
}

void WebSocketSession::node_gone(const std::string& node) {
  boost::asio::post(executor(), [self = shared_from_this(), node] {
    if (self->closed_ || !self->forwarded_) return;
    Forwarded& f = *self->forwarded_;
    f.proxies.erase(node);
    // What was sent there is not coming back, and neither are the replies it still owed.
    std::deque<Forwarded::Waiting> lost;
    std::erase_if(f.waiting, [&](const Forwarded::Waiting& w) {
      if (w.node != node) return false;
      lost.push_back(w);
      return true;
    });
    for (const auto& w : lost) {
      if (w.id.is_null()) continue;
      self->error(w.id, ErrorCode::kUnavailable,
                  "node " + node + ", which served the room, stopped" +
                      (w.received ? " before answering; send sync to see whether the request "
                                    "was applied"
                                  : "; the room moves to another server in a moment"));
    }
    self->arm_patience();
    if (f.node == node && !self->room_code_.empty()) self->start_move(node);
  });
}

void WebSocketSession::frames_lost(const std::string& node) {
  boost::asio::post(executor(), [self = shared_from_this(), node] {
    if (self->closed_ || !self->forwarded_ || self->room_code_.empty()) return;
    Forwarded& f = *self->forwarded_;
    if (f.node.empty() || f.moving || (!node.empty() && node != f.node)) return;
    // What the room's node sent meanwhile never came: a whole state mends it.
    ++f.resync_replies;
    const std::string text =
        protocol::encode(protocol::ClientRequest(protocol::Sync{self->room_code_}), kResyncId)
            .dump();
    self->forward(f.node, self->room_code_, nullptr, text);
  });
}

void WebSocketSession::room_claimed(const std::string& room) {
  boost::asio::post(executor(), [self = shared_from_this(), room] {
    if (self->forwarded_ && self->forwarded_->moving && room == self->room_code_) {
      self->try_move();
    }
  });
}

void WebSocketSession::start_move(const std::string& dead) {
  Forwarded& f = *forwarded_;
  if (f.moving) return;
  spdlog::info("{}: room {} lost its node {}; following it to its new owner", address_, room_code_,
               dead);
  f.moving = true;
  f.node.clear();
  f.told = false;
  f.moving_since = std::chrono::steady_clock::now();
  ctx_.forwarding->follow(room_code_, f.conn, true);
  try_move();
}

void WebSocketSession::try_move_later(std::chrono::milliseconds after) {
  Forwarded& f = *forwarded_;
  f.move_timer.expires_after(after);
  f.move_timer.async_wait([self = shared_from_this()](boost::system::error_code ec) {
    if (!ec) self->try_move();
  });
}

// Finds where the room is now: here (this node took it over) or on a live node that owns it in
// the directory; then rejoins the seat with the token its old node gave (or watches again).
void WebSocketSession::try_move() {
  if (closed_ || !forwarded_ || !forwarded_->moving || forwarded_->move_replies > 0) return;
  Forwarded& f = *forwarded_;
  const auto patience = std::chrono::milliseconds(ctx_.config.cluster_lease_ms) + 15s;
  if (std::chrono::steady_clock::now() - f.moving_since > patience) return end_move(false);
  auto attempt = [this](const std::string& node) {
    Forwarded& fw = *forwarded_;
    fw.node = node;
    if (!fw.told) {
      fw.told = true;
      queue(make_frame(
          message::notice("moved", "room " + room_code_ +
                                       " moved to another server because its server stopped; "
                                       "your place is kept and the game goes on")
              .dump()));
    }
    protocol::ClientRequest request;
    if (fw.token.empty()) {
      request = protocol::Spectate{room_code_};
    } else {
      request = protocol::Rejoin{room_code_, fw.token};
    }
    const std::string text = protocol::encode(request, kMoveId).dump();
    const std::string type(protocol::type_name(request));
    current_text_ = text;
    current_type_ = type;
    ++fw.move_replies;
    fw.attempting = true;
    std::visit(
        [&](auto& m) {
          if constexpr (requires(RoomClient & c, decltype(m) r, const json& j) { c.on(r, j); }) {
            RoomClient::on(m, json(kMoveId));
          }
        },
        request);
    fw.attempting = false;
    current_text_ = {};
    current_type_ = {};
  };
  if (auto room = ctx_.lobby.find(room_code_); room && room->refusal().empty()) {
    return attempt(std::string());
  }
  ctx_.cluster->locate(room_code_, [self = shared_from_this(), attempt, code = room_code_](
                                       std::optional<ClusterNode::Whereabouts> where) {
    boost::asio::post(self->executor(), [self, attempt, code, where = std::move(where)] {
      if (self->closed_ || !self->forwarded_ || !self->forwarded_->moving ||
          self->room_code_ != code || self->forwarded_->move_replies > 0) {
        return;
      }
      if (!where) return self->end_move(false);  // the cluster no longer has the room
      // Alive means the owner's lease is the one the room names: a node back from a lapse that
      // claimed the room again counts, the dead incarnation does not.
      if (!where->unknown && where->alive && !where->mine) return attempt(where->node);
      self->try_move_later(kMoveRetry);
    });
  });
}

void WebSocketSession::move_reply(const std::string& frame) {
  Forwarded& f = *forwarded_;
  --f.move_replies;
  if (!f.moving) return;
  const json reply = json::parse(frame, nullptr, false);
  const std::string type = reply.is_object() ? reply.value("type", "") : "";
  if (type == "joined" || type == "spectating") return;  // entered() ends the move
  // Refused (the new owner is not ready yet, or did not answer): try again, unless the seat is
  // gone for good.
  if (reply.is_object() && reply.value("code", "") == "bad_token") return end_move(false);
  try_move_later(kMoveRetry);
}

void WebSocketSession::end_move(bool found) {
  Forwarded& f = *forwarded_;
  f.moving = false;
  f.move_timer.cancel();
  ctx_.forwarding->follow(room_code_, f.conn, false);
  if (found) {
    spdlog::info("{}: room {} found again{}", address_, room_code_,
                 f.node.empty() ? " on this node" : " on node " + f.node);
    return;
  }
  error(nullptr, ErrorCode::kUnavailable,
        "room " + room_code_ + " could not be found again after its server stopped; rejoin it");
  room_code_.clear();
  f.node.clear();
  f.token.clear();
}

}  // namespace campfire::server
