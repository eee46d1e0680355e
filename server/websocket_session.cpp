#include "server/websocket_session.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <type_traits>

#include "engine/core/match.hpp"
#include "protocol/messages.hpp"
#include "protocol/requests.hpp"
#include "server/version.hpp"
#include "server/websocket_forwarded.hpp"

namespace campfire::server {

using namespace std::chrono_literals;
using protocol::ErrorCode;
namespace message = protocol::message;

namespace {
// What the first read of a message may take. The read waits with its buffer ready, so an idle
// connection holds this much (a whole TCP frame's worth, 1536 bytes, by default); a longer
// message's rest is read once its header has said how long it is.
constexpr std::size_t kFirstRead = 128;
// What a read may take while the last one filled its buffer: requests are waiting.
constexpr std::size_t kBusyRead = 4096;
// Guards the frames other strands hand a connection. Connections share a few locks: a mutex of
// each connection's own would add 40 bytes to every idle connection, and the lock is held only
// to move a pointer.
std::mutex& incoming_lock(const void* session) {
  static std::array<std::mutex, 64> locks;
  return locks[(reinterpret_cast<std::uintptr_t>(session) >> 6) % locks.size()];
}
}  // namespace

// permessage-deflate on one connection (see the header).
struct WebSocketSession::Compression {
  ws::DeflateSettings settings;
  std::unique_ptr<ws::Deflater> deflater;
  // When the compressor last compressed (steady clock ticks): read by the sweep, which lets an
  // idle connection's compressor go.
  std::atomic<std::int64_t> used{0};
};

// The frames of one write: their headers side by side, and the compressed texts of those sent
// compressed. Made for each write and gone after it, so an idle connection holds none.
struct WebSocketSession::Batch {
  std::vector<Out> frames;
  std::vector<std::uint8_t> headers;
  std::vector<std::string> compressed;
  std::vector<boost::asio::const_buffer> buffers;
  bool close = false;  // our close frame is among them
};

WebSocketSession::WebSocketSession(tcp::socket&& socket, ServerContext& ctx,
                                   std::unique_ptr<ServerContext::Ticket> ticket)
    : RoomClient(ctx, ticket->address()),
      stream_(std::in_place_index<0>, std::move(socket)),
      ticket_(std::move(ticket)),
      reader_(ctx.config.max_frame_bytes),
      messages_(ctx.config.message_rate(), TokenBucket::Clock::now()) {}

WebSocketSession::WebSocketSession(TlsStream&& stream, ServerContext& ctx,
                                   std::unique_ptr<ServerContext::Ticket> ticket)
    : RoomClient(ctx, ticket->address()),
      stream_(std::in_place_index<1>, std::move(stream)),
      ticket_(std::move(ticket)),
      reader_(ctx.config.max_frame_bytes),
      messages_(ctx.config.message_rate(), TokenBucket::Clock::now()) {}

WebSocketSession::~WebSocketSession() {
  if (forwarded_) ctx_.forwarding->detach(forwarded_->conn);
  ctx_.untrack(this);
}

// The opening handshake (RFC 6455 4.2): the request is a WebSocket upgrade (HttpSession checked
// method, Upgrade and Connection); here its version and key, and whether the client offers
// permessage-deflate.
void WebSocketSession::run(http::request<http::string_body> upgrade) {
  if (upgrade[http::field::sec_websocket_version] != "13") {
    return refuse_upgrade("426 Upgrade Required", "this server speaks WebSocket version 13\n",
                          "Sec-WebSocket-Version: 13\r\n");
  }
  if (upgrade[http::field::host].empty()) {
    return refuse_upgrade("400 Bad Request", "an HTTP/1.1 request needs a Host header\n");
  }
  const std::string_view key = upgrade[http::field::sec_websocket_key];
  if (!ws::valid_key(key)) return refuse_upgrade("400 Bad Request", "a bad Sec-WebSocket-Key\n");
  std::string answer =
      "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
      "Sec-WebSocket-Accept: ";
  answer += ws::accept_key(key);
  answer += "\r\nServer: ";
  answer += kServerName;
  answer += "\r\n";
  if (!ctx_.config.no_compression) {
    if (auto deflate = ws::accept_deflate(upgrade[http::field::sec_websocket_extensions],
                                          ws::DeflateSettings{})) {
      compression_ = std::make_unique<Compression>();
      compression_->settings = deflate->settings;
      reader_.allow_deflate();
      answer += "Sec-WebSocket-Extensions: ";
      answer += deflate->header;
      answer += "\r\n";
    }
  }
  answer += "\r\n";
  ctx_.track(shared_from_this(), *this);
  auto text = std::make_shared<std::string>(std::move(answer));
  with_stream([&](auto& s) {
    boost::asio::async_write(s, boost::asio::buffer(*text),
                             [self = shared_from_this(), text](beast::error_code ec, std::size_t) {
                               self->on_accept(ec);
                             });
  });
}

void WebSocketSession::refuse_upgrade(std::string_view status, std::string_view why,
                                      std::string_view extra_headers) {
  std::string answer = "HTTP/1.1 ";
  answer += status;
  answer += "\r\nServer: ";
  answer += kServerName;
  answer += "\r\nContent-Type: text/plain\r\nConnection: close\r\n";
  answer += extra_headers;
  answer += "Content-Length: " + std::to_string(why.size()) + "\r\n\r\n";
  answer += why;
  closed_ = true;
  auto text = std::make_shared<std::string>(std::move(answer));
  with_stream([&](auto& s) {
    boost::asio::async_write(s, boost::asio::buffer(*text),
                             [self = shared_from_this(), text](beast::error_code, std::size_t) {
                               self->close_socket();
                             });
  });
}

void WebSocketSession::on_accept(beast::error_code ec) {
  if (ec) {
    closed_ = true;
    return fail(ec, "accept");
  }
  heard();
  do_read();
}

// One read in flight, into the buffer's free end. While idle the buffer is kFirstRead bytes; a
// frame longer than what is left of it grows it to the frame's size (the reader has checked
// that against the size limit), and it shrinks back once empty.
void WebSocketSession::do_read() {
  std::size_t want = std::max(in_size_ + kFirstRead / 2, std::max(in_needed_, kFirstRead));
  // A client sending faster than it is read gets reads large enough for many requests at once.
  if (read_filled_) want = std::max(want, kBusyRead);
  if (in_capacity_ < want) {
    const std::size_t capacity = std::max(want, in_capacity_ * 2);
    std::unique_ptr<char[]> grown(new char[capacity]);  // not zeroed: read into
    if (in_size_ > 0) std::memcpy(grown.get(), in_.get(), in_size_);
    in_ = std::move(grown);
    in_capacity_ = capacity;
  }
  with_stream([&](auto& s) {
    s.async_read_some(boost::asio::buffer(in_.get() + in_size_, in_capacity_ - in_size_),
                      beast::bind_front_handler(&WebSocketSession::on_read, shared_from_this()));
  });
}

void WebSocketSession::on_read(beast::error_code ec, std::size_t bytes) {
  if (ec) {
    closed_ = true;
    tell_room_gone();
    close_socket();
    return fail(ec, "read");
  }
  heard();
  read_filled_ = bytes == in_capacity_ - in_size_;
  if (failing_ || peer_closed_) {
    // The closing handshake is under way: what else comes is dropped until the client ends
    // TCP (or the sweep does, if it never does).
    in_size_ = 0;
    return do_read();
  }
  in_size_ += bytes;
  take_frames();
  if (failing_ || peer_closed_) {
    tell_room_gone();
    in_size_ = 0;
  }
  if (in_size_ == 0 && in_capacity_ > kFirstRead && !read_filled_) {
    // Keep idle connections small: a buffer grown for a long message is given back.
    in_.reset();
    in_capacity_ = 0;
    reader_.trim();
  }
  do_read();
}

void WebSocketSession::take_frames() {
  std::size_t at = 0;
  in_needed_ = 0;
  while (!failing_ && !peer_closed_) {
    const auto item = reader_.next(in_.get() + at, in_size_ - at);
    using Item = ws::FrameReader::Item;
    if (item.kind == Item::kNeedMore && item.consumed == 0) {
      in_needed_ = item.needed;
      break;
    }
    switch (item.kind) {
      case Item::kText:
        // After our close frame (or while it waits behind the queue) requests go unanswered.
        if (!closing_ && !closed_) handle(item.payload);
        break;
      case Item::kBinary:
        if (!closing_ && !closed_) {
          error(nullptr, ErrorCode::kBadJson, "frames must be text frames holding JSON");
        }
        break;
      case Item::kPing:
        if (!closed_) queue_control(ws::control_frame(ws::Opcode::kPong, item.payload), false);
        break;
      case Item::kPong:
        pinging_ = false;
        break;
      case Item::kClose:
        on_close_frame(item.code, item.payload);
        break;
      case Item::kFail:
        fail_connection(item.code, item.payload);
        break;
      case Item::kNeedMore:
        break;  // a fragment taken; the message goes on
    }
    at += item.consumed;
  }
  // What is left (the start of a frame) moves to the front.
  if (at > 0) {
    in_size_ -= std::min(at, in_size_);
    if (in_size_ > 0) std::memmove(in_.get(), in_.get() + at, in_size_);
  }
}

void WebSocketSession::on_close_frame(std::uint16_t code, std::string_view) {
  peer_closed_ = true;
  closed_ = true;
  // The answer to our close: the client ends TCP next (our side of it is shut already, or
  // will be once our close frame is written).
  if (close_sent_.load(std::memory_order_relaxed)) return;
  // Answered with the same code (none if it gave none), after the frame being written; what
  // else was queued is dropped, as the client is leaving.
  closed_ = true;
  queue_.clear();
  const std::string reply =
      code == 0 ? ws::control_frame(ws::Opcode::kClose, {}) : ws::close_frame(code, {});
  queue_.push_back(Out{make_frame(reply), Out::kClose});
  mark_close_sent();
  if (!writing_) do_write();
}

void WebSocketSession::fail_connection(std::uint16_t code, std::string_view why) {
  if (close_sent_.load(std::memory_order_relaxed)) {
    // Our close frame is out already: no second one; the client's end of TCP is awaited.
    failing_ = true;
    closed_ = true;
    return;
  }
  if (code == ws::kTooBig) {
    spdlog::warn("{}: frame over {} bytes, closing", ticket_->address(),
                 ctx_.config.max_frame_bytes);
  } else {
    spdlog::debug("{}: closing with {}: {}", ticket_->address(), code, why);
  }
  failing_ = true;
  closed_ = true;
  queue_.clear();
  queue_.push_back(Out{make_frame(ws::close_frame(code, why)), Out::kClose});
  mark_close_sent();
  if (!writing_) do_write();
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
    self->close_after_flush("server shutting down", ws::kRestart, "server restarting");
  });
}

bool WebSocketSession::enqueue(Frame frame) {
  if (closed_ || closing_) return false;
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
  queue_.push_back(Out{std::move(frame), Out::kText});
  return true;
}

void WebSocketSession::queue(Frame frame) {
  if (enqueue(std::move(frame)) && !writing_) do_write();
}

void WebSocketSession::queue_control(std::string frame, bool close) {
  queue_.push_back(Out{make_frame(std::move(frame)), close ? Out::kClose : Out::kControl});
  if (!writing_) do_write();
}

namespace {
// Shorter texts go uncompressed: a few bytes saved would not pay for the compressor's call.
constexpr std::size_t kCompressFrom = 48;
// A compressor unused this long is let go of; the next frame starts a fresh one.
constexpr auto kCompressorIdle = std::chrono::seconds(10);
}  // namespace

// Everything queued leaves in one write: each frame's header and text side by side in one list
// of buffers, so a burst of frames costs one send and no copy.
void WebSocketSession::do_write() {
  if (queue_.empty()) return;
  writing_ = true;
  auto batch = std::make_shared<Batch>();
  const std::size_t n = queue_.size();
  batch->frames.reserve(n);
  batch->headers.resize(n * ws::kMaxHeader);
  batch->buffers.reserve(2 * n);
  for (auto& out : queue_) batch->frames.push_back(std::move(out));
  queue_.clear();
  std::size_t compressed = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const Out& out = batch->frames[i];
    if (out.kind != Out::kText) {
      batch->close = batch->close || out.kind == Out::kClose;
      batch->buffers.emplace_back(out.frame->data(), out.frame->size());
      continue;
    }
    ctx_.metrics.frame_written();
    std::string_view text = *out.frame;
    bool deflated = false;
    if (compression_ && text.size() >= kCompressFrom) {
      if (!compression_->deflater) {
        compression_->deflater = std::make_unique<ws::Deflater>(compression_->settings);
      }
      // Reserved for every frame, so the texts already compressed stay where they are.
      if (batch->compressed.empty()) batch->compressed.reserve(n);
      compression_->deflater->compress(text, batch->compressed.emplace_back());
      text = batch->compressed.back();
      deflated = true;
      ++compressed;
    }
    std::uint8_t* header = batch->headers.data() + i * ws::kMaxHeader;
    const std::size_t h = ws::write_header(header, ws::Opcode::kText, text.size(), deflated);
    batch->buffers.emplace_back(header, h);
    batch->buffers.emplace_back(text.data(), text.size());
  }
  if (compressed > 0) {
    compression_->used.store(std::chrono::steady_clock::now().time_since_epoch().count(),
                             std::memory_order_relaxed);
  }
  ctx_.metrics.socket_writes().fetch_add(1, std::memory_order_relaxed);
  with_stream([&](auto& s) {
    boost::asio::async_write(s, batch->buffers,
                             [self = shared_from_this(), batch](beast::error_code ec, std::size_t) {
                               self->on_write(batch, ec);
                             });
  });
}

void WebSocketSession::on_write(const std::shared_ptr<Batch>& batch, beast::error_code ec) {
  writing_ = false;
  if (ec) {
    // The read ends too (the socket is closed), and that tells the room.
    close_socket();
    return fail(ec, "write");
  }
  if (batch->close) {
    // No more data goes this way: the server ends its side of TCP first (RFC 6455 7.1.1), and
    // the connection is over when the client ends its own, having read our close frame (the
    // sweep ends it if the client never does).
    return shutdown(tcp::socket::shutdown_send, false);
  }
  if (!queue_.empty()) return do_write();
  if (closing_ && !closed_) {
    // The queue is written: now the close frame.
    closed_ = true;
    mark_close_sent();
    queue_control(ws::close_frame(close_code_, close_reason_), true);
  }
}

void WebSocketSession::close_after_flush(const char* why, std::uint16_t code, const char* reason) {
  if (closing_ || closed_) return;
  if (code == ws::kPolicy) {
    spdlog::warn("{}: closing connection ({})", ticket_->address(), why);
  }
  closing_ = true;
  close_code_ = code;
  close_reason_ = reason;
  if (!writing_) {
    if (!queue_.empty()) return do_write();
    closed_ = true;
    mark_close_sent();
    queue_control(ws::close_frame(close_code_, close_reason_), true);
  }
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
  // Once our close frame is out, only its answer counts (see silence).
  if (close_sent_.load(std::memory_order_relaxed)) return;
  heard_.store(std::chrono::steady_clock::now().time_since_epoch().count(),
               std::memory_order_relaxed);
}

void WebSocketSession::check_silence(std::chrono::steady_clock::time_point now) {
  // Most connections are not due: they are looked at without a post.
  const std::int64_t last = heard_.load(std::memory_order_relaxed);
  if (last == 0) return;  // the handshake has its own timeout
  const auto quiet =
      now - std::chrono::steady_clock::time_point(std::chrono::steady_clock::duration(last));
  const auto idle = std::chrono::duration<double>(ctx_.config.idle_timeout_s);
  const auto closing = std::chrono::duration<double>(ctx_.config.handshake_timeout_s);
  const bool idle_compressor =
      compression_ && compression_->used.load(std::memory_order_relaxed) != 0 &&
      now - std::chrono::steady_clock::time_point(std::chrono::steady_clock::duration(
                compression_->used.load(std::memory_order_relaxed))) >=
          kCompressorIdle;
  if (quiet < idle / 2 && !idle_compressor &&
      !(close_sent_.load(std::memory_order_relaxed) && quiet >= closing)) {
    return;
  }
  boost::asio::post(executor(), [self = shared_from_this(), now] { self->silence(now); });
}

void WebSocketSession::silence(std::chrono::steady_clock::time_point now) {
  if (compression_ && compression_->deflater) {
    const auto used = std::chrono::steady_clock::time_point(
        std::chrono::steady_clock::duration(compression_->used.load(std::memory_order_relaxed)));
    if (now - used >= kCompressorIdle) {
      // A quiet connection keeps no compressor: its next frame starts a fresh window.
      compression_->deflater.reset();
      compression_->used.store(0, std::memory_order_relaxed);
      ctx_.memory_freed.store(true, std::memory_order_relaxed);
    }
  }
  const auto quiet =
      now - std::chrono::steady_clock::time_point(
                std::chrono::steady_clock::duration(heard_.load(std::memory_order_relaxed)));
  if (close_sent_.load(std::memory_order_relaxed)) {
    // Our close frame went unanswered for the handshake's time: the connection ends.
    if (quiet >= std::chrono::duration<double>(ctx_.config.handshake_timeout_s)) close_socket();
    return;
  }
  if (closed_ || closing_) return;
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
  queue_control(ws::control_frame(ws::Opcode::kPing, {}), false);
}

void WebSocketSession::close_socket() {
  closed_ = true;
  // Frames being written belong to their write; the queued ones can go now.
  queue_.clear();
  shutdown(tcp::socket::shutdown_both, true);
}

void WebSocketSession::shutdown(tcp::socket::shutdown_type what, bool close) {
  with_stream([&](auto& s) {
    beast::error_code ignored;
    auto& lowest = beast::get_lowest_layer(s);
    tcp::socket* socket = nullptr;
    if constexpr (std::is_same_v<std::decay_t<decltype(lowest)>, tcp::socket>) {
      socket = &lowest;
    } else {
      socket = &lowest.socket();
    }
    socket->shutdown(what, ignored);
    if (close) socket->close(ignored);
  });
}

void WebSocketSession::mark_close_sent() {
  heard();  // the wait for the client's answer starts now (see silence)
  close_sent_.store(true, std::memory_order_relaxed);
}

void WebSocketSession::drop(const char* why) {
  if (closed_) return;
  spdlog::warn("{}: dropping connection ({})", ticket_->address(), why);
  closed_ = true;
  // Closing the socket ends the pending read, which tells the room; the seat stays.
  close_socket();
}

void WebSocketSession::fail(beast::error_code ec, const char* what) {
  if (ec == boost::asio::error::operation_aborted || ec == boost::asio::error::eof ||
      ec == boost::asio::error::connection_reset || ec == boost::asio::error::bad_descriptor) {
    return;
  }
  spdlog::debug("{}: {}: {}", ticket_->address(), what, ec.message());
}

}  // namespace campfire::server
