// One WebSocket connection: reads requests, answers lobby requests itself, hands room requests
// to the room (server/room_client.hpp) or, in a cluster, to the node that owns the room
// (server/forwarding.hpp), and writes what rooms send with one write in flight behind a bounded
// queue. When the node owning its room dies, it follows the room to its new owner by itself.
#pragma once

#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/websocket/ssl.hpp>

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
#include "server/gather_stream.hpp"
#include "server/room_client.hpp"

namespace campfire::server {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
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
  void on_accept(beast::error_code ec);
  void do_read();
  // The first bytes of a message came: reads the rest, if any, then on_read.
  void on_read_start(beast::error_code ec, std::size_t bytes);
  void on_read(beast::error_code ec, std::size_t bytes);
  void take_incoming();
  // Adds a frame to the write queue; false (and the connection dropped) when it is full.
  bool enqueue(Frame frame);
  void queue(Frame frame);
  void do_write();
  void on_write(beast::error_code ec, std::size_t bytes);
  void drop(const char* why);
  // Lets go of the queued frames (not the one being written) and closes the socket; the pending
  // read then ends and tells the room.
  void close_socket();
  // Something came from the peer (a message, a pong): its silence starts again.
  void heard();
  // On the strand: what check_silence found due, if it still is.
  void silence(std::chrono::steady_clock::time_point now);
  // Stops reading, lets queued frames go out, then closes with a close frame.
  void close_after_flush(const char* why, boost::beast::websocket::close_code code,
                         const char* reason);
  void finish_closing();
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
  // The node owning the connection's room died: the room is followed to its new owner.
  void start_move(const std::string& dead);
  void try_move();
  void try_move_later(std::chrono::milliseconds after);
  void move_reply(const std::string& frame);
  void end_move(bool found);

  // Plain or TLS; every use of the stream goes through with_ws, a branch on which it is. A plain
  // connection's WebSocket sits on the socket itself: the WebSocket stream keeps its own
  // handshake and idle timers, so a timed stream below it would only add a few hundred bytes to
  // every connection and a layer to every read and write. Campfire offers no permessage-deflate,
  // so the streams are built without it.
  template <class F>
  decltype(auto) with_ws(F&& f) {
    return std::visit(std::forward<F>(f), ws_);
  }
  boost::asio::any_io_executor executor() {
    return with_ws([](auto& ws) { return ws.get_executor(); });
  }
  std::variant<websocket::stream<GatherStream<tcp::socket>, false>,
               websocket::stream<GatherStream<TlsStream>, false>>
      ws_;
  std::unique_ptr<ServerContext::Ticket> ticket_;
  // The message being read; between messages at most a small first read's worth (see do_read).
  beast::flat_buffer buffer_;
  // A list, not a deque: an empty std::deque still allocates a 512-byte block, and most
  // connections sit idle with nothing queued.
  std::list<Frame> queue_;
  // Frames from other strands, waiting for the one post that moves them to `queue_` (guarded by
  // a lock shared with other connections, see incoming_lock).
  std::vector<Frame> incoming_;
  bool take_posted_ = false;
  bool pinging_ = false;  // a keep-alive ping is on its way
  bool writing_ = false;
  bool closed_ = false;
  bool closing_ = false;  // no more reads; close once the queue is written
  boost::beast::websocket::close_code close_code_ = boost::beast::websocket::close_code::normal;
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
