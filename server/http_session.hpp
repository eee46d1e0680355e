// One HTTP connection, plain or TLS: reads requests, has the routes (http_routes.hpp) answer them,
// and upgrades /ws to a WebSocket session.
#pragma once

#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

#include <memory>
#include <optional>

#include "server/context.hpp"

namespace campfire::server {

namespace beast = boost::beast;
namespace http = beast::http;
using tcp = boost::asio::ip::tcp;

// Stream is beast::tcp_stream or beast::ssl_stream<beast::tcp_stream>; both are instantiated in
// http_session.cpp, so Beast's HTTP code stays there and in the routes (http_routes.cpp).
template <class Stream>
class HttpSession : public std::enable_shared_from_this<HttpSession<Stream>> {
 public:
  HttpSession(tcp::socket&& socket, ServerContext& ctx,
              std::unique_ptr<ServerContext::Ticket> ticket);
  void run();

 private:
  void on_handshake(beast::error_code ec);
  void do_read();
  void on_read(beast::error_code ec, std::size_t bytes);
  void upgrade(http::request<http::string_body>&& req);
  template <class Response>
  void write(Response&& response);
  void on_write(bool keep_alive, beast::error_code ec, std::size_t bytes);
  void shutdown();

  Stream stream_;
  ServerContext& ctx_;
  std::unique_ptr<ServerContext::Ticket> ticket_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
};

// Whether a WebSocket upgrade's Origin header is acceptable under --allowed-origins: no list, no
// Origin header (not a browser), the page's own origin, or an origin on the list.
bool origin_allowed(const Config& config, std::string_view origin, std::string_view host);

}  // namespace campfire::server
