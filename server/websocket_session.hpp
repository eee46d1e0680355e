// One WebSocket connection: reads requests, answers lobby requests itself, hands room requests
// to the room (server/room_client.hpp) or, in a cluster, to the node that owns the room
// (server/forwarding.hpp), and writes what rooms send with one write in flight behind a bounded
// queue. When the node owning its room dies, it follows the room to its new owner by itself.
#pragma once

#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

#include <atomic>
#include <chrono>
#include <deque>
#include <list>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "protocol/protocol.hpp"
#include "protocol/requests.hpp"
#include "protocol/token_bucket.hpp"
#include "server/client.hpp"
#include "server/context.hpp"
#include "server/forwarding.hpp"
#include "server/room_client.hpp"
#include "server/websocket_frames.hpp"

namespace campfire::server {

namespace beast = boost::beast;
namespace http = beast::http;
using tcp = boost::asio::ip::tcp;
using TlsStream = beast::ssl_stream<beast::tcp_stream>;

class WebSocketSession : public RoomClient,
                         public Forwarding::Remote,
                         public ServerContext::Session,
                         public std::enable_shared_from_this<WebSocketSession> {
 public:
  WebSocketSession(tcp::socket&& socket, ServerContext& ctx,
                   std::unique_ptr<ServerContext::Ticket> ticket);
  // wss://: the TLS handshake is done.
  WebSocketSession(TlsStream&& stream, ServerContext& ctx,
                   std::unique_ptr<ServerContext::Ticket> ticket);
  ~WebSocketSession() override;
  WebSocketSession(const WebSocketSession&) = delete;
  WebSocketSession& operator=(const WebSocketSession&) = delete;

  void run(http::request<http::string_body> upgrade);
  void send(Frame frame) override;
  UpdateMode updates() const override { return updates_.load(std::memory_order_relaxed); }
  bool texts() const override { return texts_.load(std::memory_order_relaxed); }
  // ServerContext::Session: closes the connection politely (server shutdown); pings a silent
  // peer or drops it.
  void go_away() override;
  void check_silence(std::chrono::steady_clock::time_point now) override;

  // Forwarding::Remote: what the owner of its room elsewhere sends it.
  void remote_frames(const std::string& node, std::int64_t received,
                     std::vector<std::string> frames) override;
  void remote_entered(const std::string& node, const std::string& room, std::string token) override;
  void remote_evicted(const std::string& node, const std::string& room) override;
  void node_gone(const std::string& node) override;
  void room_claimed(const std::string& room) override;
  void frames_lost(const std::string& node) override;

 protected:
  // RoomClient
  boost::asio::any_io_executor strand() override { return executor(); }
  std::shared_ptr<RoomClient> self() override { return shared_from_this(); }
  bool gone() const override { return closed_; }
  void error(const json& id, protocol::ErrorCode code, const std::string& message) override;
  void error(const json& id, const Error& why) override;
  bool elsewhere(const json& id, const std::string& code) override;
  void not_here(const json& id, const std::string& code, const std::string& otherwise) override;
  void left_for_another(const std::string& old) override;
  void after_entered(const std::string& room, const std::string& token) override;
  void after_evicted(const std::string& room) override;

 private:
  // The opening handshake's answer was written: messages may come.
  void on_accept(beast::error_code ec);
  // Refuses the upgrade with an HTTP answer and closes.
  void refuse_upgrade(std::string_view status, std::string_view why,
                      std::string_view extra_headers = {});
  void do_read();
  void on_read(beast::error_code ec, std::size_t bytes);
  // Reads what the buffer holds: messages, control frames, or a fault that ends the connection.
  void take_frames();
  // Moves the frames other strands sent into the write queue.
  void take_incoming();
  void on_close_frame(std::uint16_t code, std::string_view reason);
  // The client broke the protocol: a close frame with `code`, then the connection ends.
  void fail_connection(std::uint16_t code, std::string_view why);
  // Adds a frame to the write queue; false (and the connection dropped) when it is full.
  bool enqueue(Frame frame);
  void queue(Frame frame);
  // Queues a control frame the server writes as it is (a ping, a pong, a close).
  void queue_control(std::string frame, bool close);
  void do_write();
  struct Batch;
  void on_write(const std::shared_ptr<Batch>& batch, beast::error_code ec);
  void drop(const char* why);
  // Lets go of the queued frames (not those being written) and closes the socket; a pending
  // read then ends and tells the room.
  void close_socket();
  // Shuts down one or both directions of TCP below the stream (TLS included), and closes it.
  void shutdown(tcp::socket::shutdown_type what, bool close);
  // Our close frame is queued: nothing more goes out, and the client's answer is awaited.
  void mark_close_sent();
  // Something came from the peer (a message, a pong): its silence starts again.
  void heard();
  // On the strand: what check_silence found due, if it still is.
  void silence(std::chrono::steady_clock::time_point now);
  // Stops taking requests, lets queued frames go out, then closes with a close frame.
  void close_after_flush(const char* why, std::uint16_t code, const char* reason);
  void tell_room_gone();
  void fail(beast::error_code ec, const char* what);

  bool allow_message();
  void handle(std::string_view text);
  void dispatch(protocol::Request& r);
  // One handler per request type, each with its request checked whole; the room requests are
  // RoomClient's.
  using RoomClient::on;
  void on(protocol::Hello& m, const json& id);
  void on(protocol::Ping& m, const json& id);
  void on(protocol::ListGames& m, const json& id);
  void on(protocol::ListRooms& m, const json& id);
  void on(protocol::CreateRoom& m, const json& id);
  // Sends a reply (protocol/messages.hpp) with the id of the request it answers.
  void reply(const json& id, json message);

  // Forwarding: the state of a connection that has sent requests to other nodes, made when it
  // first does (most connections never need it).
  struct Forwarded;
  Forwarded& forwarded();
  // Sends request `text` for `room` to its owner `node`; `id` gets an error if no receipt comes.
  void forward(const std::string& node, const std::string& room, const json& id, std::string text);
  // Node `node` took every request up to number `received`, and replied to those with the ids in
  // `replied`.
  void answered(const std::string& node, std::int64_t received, const std::vector<json>& replied);
  void arm_patience();
  void patience_over();
  // The connection entered `room`: the room it last left elsewhere, if another, is let go on its
  // node (the leave may never have reached it).
  void let_left_room_go(const std::string& room);
  // The node owning the connection's room died: the room is followed to its new owner.
  void start_move(const std::string& dead);
  void try_move();
  void try_move_later(std::chrono::milliseconds after);
  void move_reply(const std::string& frame);
  void end_move(bool found);

  // Plain or TLS; every use of the stream goes through with_stream, a branch on which it is. The
  // WebSocket protocol above it is Campfire's own (server/websocket_frames.hpp): frames are
  // read straight from the socket into one buffer, and every frame a connection owes leaves in
  // one write of its headers and texts, without copying them.
  template <class F>
  decltype(auto) with_stream(F&& f) {
    return std::visit(std::forward<F>(f), stream_);
  }
  boost::asio::any_io_executor executor() {
    return with_stream([](auto& s) -> boost::asio::any_io_executor { return s.get_executor(); });
  }
  std::variant<tcp::socket, TlsStream> stream_;
  std::unique_ptr<ServerContext::Ticket> ticket_;
  // Bytes read and not yet taken: at most a small first read's worth while idle (see do_read).
  std::unique_ptr<char[]> in_;
  std::size_t in_size_ = 0;
  std::size_t in_capacity_ = 0;
  std::size_t in_needed_ = 0;  // what the frame begun in the buffer needs in all
  bool read_filled_ = false;   // the last read filled the buffer: more is waiting
  ws::FrameReader reader_;
  // permessage-deflate, when the client offered it: made at the handshake; its compressor when
  // the connection first sends a long enough frame, let go of when it falls quiet.
  struct Compression;
  std::unique_ptr<Compression> compression_;
  // A frame waiting to be written: a text message, or a control frame as it goes on the wire.
  struct Out {
    Frame frame;
    enum Kind : std::uint8_t { kText, kControl, kClose } kind = kText;
  };
  // A list, not a deque: an empty std::deque still allocates a 512-byte block, and most
  // connections sit idle with nothing queued.
  std::list<Out> queue_;
  // Frames from other strands, waiting for the one post that moves them to `queue_` (guarded by
  // a lock shared with other connections, see incoming_lock).
  std::vector<Frame> incoming_;
  bool take_posted_ = false;
  bool pinging_ = false;  // a keep-alive ping is on its way
  bool writing_ = false;
  bool closed_ = false;       // nothing more is queued (our close frame may still be on its way)
  bool closing_ = false;      // no more requests; our close frame follows the queued ones
  bool failing_ = false;      // the socket closes as soon as our close frame is written
  bool peer_closed_ = false;  // the client's close frame came
  std::atomic<bool> close_sent_{false};  // read by the sweep, which ends a close left unanswered
  std::uint16_t close_code_ = ws::kNormal;
  const char* close_reason_ = "";

  std::atomic<UpdateMode> updates_{UpdateMode::kState};  // read by rooms on their strands
  std::atomic<bool> texts_{true};                        // likewise
  // When the peer was last heard from (steady clock ticks; 0 before the WebSocket opened): read
  // by the server's sweep.
  std::atomic<std::int64_t> heard_{0};
  // The request being handled, while it is (a request for another node's room is sent on as
  // it came).
  std::string_view current_text_;
  std::string_view current_type_;
  std::unique_ptr<Forwarded> forwarded_;

  TokenBucket messages_;  // at Config::message_rate()
  int violations_ = 0;
};

}  // namespace campfire::server
