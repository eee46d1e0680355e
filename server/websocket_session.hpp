// One WebSocket connection: reads requests, answers lobby requests itself, hands room requests
// to the room, and writes what rooms send with one write in flight behind a bounded queue.
#pragma once

#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/websocket/ssl.hpp>

#include <chrono>
#include <list>
#include <atomic>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "protocol/protocol.hpp"
#include "protocol/requests.hpp"
#include "protocol/token_bucket.hpp"
#include "server/client.hpp"
#include "server/context.hpp"
#include "server/gather_stream.hpp"

namespace campfire::server {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = boost::asio::ip::tcp;
using TlsStream = beast::ssl_stream<beast::tcp_stream>;

class WebSocketSession : public Client, public std::enable_shared_from_this<WebSocketSession> {
 public:
  WebSocketSession(tcp::socket&& socket, ServerContext& ctx,
                   std::unique_ptr<ServerContext::Ticket> ticket);
  // wss://: the TLS handshake is done.
  WebSocketSession(TlsStream&& stream, ServerContext& ctx,
                   std::unique_ptr<ServerContext::Ticket> ticket);
  ~WebSocketSession() override;

  void run(http::request<http::string_body> upgrade);
  void send(Frame frame) override;
  UpdateMode updates() const override { return updates_.load(std::memory_order_relaxed); }
  void entered(const std::string& room) override;
  void evicted(const std::string& room) override;
  void rejoin_answered(bool resumed) override;
  // Closes the connection politely (server shutdown).
  void go_away();

 private:
  void on_accept(beast::error_code ec);
  void do_read();
  void on_read(beast::error_code ec, std::size_t bytes);
  void take_incoming();
  // Adds a frame to the write queue; false (and the connection dropped) when it is full.
  bool enqueue(Frame frame);
  void queue(Frame frame);
  void do_write();
  void on_write(beast::error_code ec, std::size_t bytes);
  void drop(const char* why);
  // Stops reading, lets queued frames go out, then closes with a close frame.
  void close_after_flush(const char* why, boost::beast::websocket::close_code code,
                         const char* reason);
  void finish_closing();
  void tell_room_gone();
  void fail(beast::error_code ec, const char* what);

  bool allow_message();
  void handle(std::string_view text);
  void dispatch(protocol::Request& r);
  // One handler per request type, each with its request checked whole.
  void on(protocol::Hello& m, const json& id);
  void on(protocol::Ping& m, const json& id);
  void on(protocol::ListGames& m, const json& id);
  void on(protocol::ListRooms& m, const json& id);
  void on(protocol::CreateRoom& m, const json& id);
  void on(protocol::Join& m, const json& id);
  void on(protocol::Rejoin& m, const json& id);
  void on(protocol::Spectate& m, const json& id);
  void on(protocol::Leave& m, const json& id);
  void on(protocol::AddBot& m, const json& id);
  void on(protocol::Start& m, const json& id);
  void on(protocol::Act& m, const json& id);
  void on(protocol::Chat& m, const json& id);
  void on(protocol::Sync& m, const json& id);
  void on(protocol::History& m, const json& id);
  void on(protocol::Contribute& m, const json& id);
  // Sends a reply (protocol/messages.hpp) with the id of the request it answers.
  void reply(const json& id, json message);
  // Sends an error frame with one of the protocol's codes, or with an Error as it came (from the
  // protocol's field readers, the lobby, the fairness checks or a game).
  void error(const json& id, protocol::ErrorCode code, const std::string& message);
  void error(const json& id, const Error& why);
  // The room a request names, if this connection is in it (else an error is sent and null).
  std::shared_ptr<Room> member_room(const json& id, const std::string& code);
  // The room a request names, if it exists and takes requests (else an error and null).
  std::shared_ptr<Room> any_room(const json& id, const std::string& code);
  // Refuses a request for a room that is not here: in a cluster it names the node that has it
  // (`room_elsewhere`), or says it is being taken over; otherwise `no_such_room` with `otherwise`.
  void not_here(const json& id, const std::string& code, const std::string& otherwise);

  // Plain or TLS; every use of the stream goes through with_ws, a branch on which it is.
  template <class F>
  decltype(auto) with_ws(F&& f) {
    return std::visit(std::forward<F>(f), ws_);
  }
  boost::asio::any_io_executor executor() {
    return with_ws([](auto& ws) { return ws.get_executor(); });
  }
  std::variant<websocket::stream<GatherStream<beast::tcp_stream>>,
               websocket::stream<GatherStream<TlsStream>>>
      ws_;
  ServerContext& ctx_;
  std::unique_ptr<ServerContext::Ticket> ticket_;
  beast::flat_buffer buffer_;
  // A list, not a deque: an empty std::deque still allocates a 512-byte block, and most
  // connections sit idle with nothing queued.
  std::list<Frame> queue_;
  // Frames from other strands, waiting for the one post that moves them to `queue_` (guarded by
  // a lock shared with other connections, see incoming_lock).
  std::vector<Frame> incoming_;
  bool take_posted_ = false;
  bool writing_ = false;
  bool closed_ = false;
  bool closing_ = false;  // no more reads; close once the queue is written
  boost::beast::websocket::close_code close_code_ = boost::beast::websocket::close_code::normal;
  const char* close_reason_ = "";

  std::string name_;
  std::atomic<UpdateMode> updates_{UpdateMode::kState};  // read by rooms on their strands
  std::string room_code_;
  int rejoins_in_flight_ = 0;  // rejoins allowed by the address budget, not yet answered

  TokenBucket messages_;  // at Config::message_rate()
  int violations_ = 0;
};

}  // namespace campfire::server
