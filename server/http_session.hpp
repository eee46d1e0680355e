// One plain HTTP connection: health, the JSON API, the browser client's files, and the upgrade
// of /ws to a WebSocket session.
#pragma once

#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <memory>
#include <optional>

#include "server/context.hpp"

namespace campfire::server {

namespace beast = boost::beast;
namespace http = beast::http;
using tcp = boost::asio::ip::tcp;

class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  HttpSession(tcp::socket&& socket, ServerContext& ctx,
              std::unique_ptr<ServerContext::Ticket> ticket);
  void run();

 private:
  void do_read();
  void on_read(beast::error_code ec, std::size_t bytes);
  void on_write(bool keep_alive, beast::error_code ec, std::size_t bytes);

  beast::tcp_stream stream_;
  ServerContext& ctx_;
  std::unique_ptr<ServerContext::Ticket> ticket_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
};

}  // namespace campfire::server
