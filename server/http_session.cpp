#include "server/http_session.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/dispatch.hpp>
#include <boost/beast/version.hpp>
#include <boost/beast/websocket.hpp>

#include "protocol/protocol.hpp"
#include "server/websocket_session.hpp"

namespace campfire::server {

namespace {

std::string_view mime_type(std::string_view path) {
  const auto dot = path.rfind('.');
  const std::string_view ext = dot == std::string_view::npos ? "" : path.substr(dot);
  if (ext == ".html") return "text/html; charset=utf-8";
  if (ext == ".js" || ext == ".mjs") return "text/javascript; charset=utf-8";
  if (ext == ".css") return "text/css; charset=utf-8";
  if (ext == ".svg") return "image/svg+xml";
  if (ext == ".png") return "image/png";
  if (ext == ".json") return "application/json";
  if (ext == ".ico") return "image/x-icon";
  if (ext == ".woff2") return "font/woff2";
  return "application/octet-stream";
}

template <class Body>
void common_headers(http::response<Body>& res, unsigned version, bool keep_alive) {
  res.version(version);
  res.set(http::field::server, "campfire");
  res.set("X-Content-Type-Options", "nosniff");
  res.keep_alive(keep_alive);
}

http::response<http::string_body> text_response(const http::request<http::string_body>& req,
                                                http::status status, std::string_view type,
                                                std::string body) {
  http::response<http::string_body> res{status, req.version()};
  common_headers(res, req.version(), req.keep_alive());
  res.set(http::field::content_type, type);
  res.set(http::field::cache_control, "no-store");
  res.body() = std::move(body);
  res.prepare_payload();
  return res;
}

}  // namespace

HttpSession::HttpSession(tcp::socket&& socket, ServerContext& ctx,
                         std::unique_ptr<ServerContext::Ticket> ticket)
    : stream_(std::move(socket)), ctx_(ctx), ticket_(std::move(ticket)) {}

void HttpSession::run() {
  boost::asio::dispatch(stream_.get_executor(),
                        beast::bind_front_handler(&HttpSession::do_read, shared_from_this()));
}

void HttpSession::do_read() {
  parser_.emplace();
  parser_->header_limit(8 * 1024);
  parser_->body_limit(16 * 1024);
  stream_.expires_after(std::chrono::duration_cast<std::chrono::steady_clock::duration>(
      std::chrono::duration<double>(ctx_.config.handshake_timeout_s)));
  http::async_read(stream_, buffer_, *parser_,
                   beast::bind_front_handler(&HttpSession::on_read, shared_from_this()));
}

void HttpSession::on_read(beast::error_code ec, std::size_t) {
  if (ec == http::error::end_of_stream) {
    stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
    return;
  }
  if (ec) return;
  http::request<http::string_body> req = parser_->release();

  if (beast::websocket::is_upgrade(req)) {
    if (req.target() != "/ws") {
      auto res = text_response(req, http::status::not_found, "text/plain", "WebSocket is at /ws\n");
      res.keep_alive(false);
      auto sp = std::make_shared<http::response<http::string_body>>(std::move(res));
      http::async_write(stream_, *sp,
                        [self = shared_from_this(), sp](beast::error_code, std::size_t) {});
      return;
    }
    stream_.expires_never();
    std::make_shared<WebSocketSession>(stream_.release_socket(), ctx_, std::move(ticket_))
        ->run(std::move(req));
    return;
  }

  auto write = [this](auto&& response) {
    using R = std::decay_t<decltype(response)>;
    auto sp = std::make_shared<R>(std::forward<decltype(response)>(response));
    const bool keep = sp->keep_alive();
    http::async_write(stream_, *sp,
                      [self = shared_from_this(), sp, keep](beast::error_code e, std::size_t n) {
                        self->on_write(keep, e, n);
                      });
  };

  if (req.method() != http::verb::get && req.method() != http::verb::head) {
    return write(text_response(req, http::status::method_not_allowed, "text/plain",
                               "only GET and HEAD\n"));
  }
  std::string target(req.target());
  if (const auto q = target.find('?'); q != std::string::npos) target.resize(q);

  if (target == "/healthz") {
    json h = {{"status", ctx_.draining ? "draining" : "ok"},
              {"rooms", ctx_.lobby.size()},
              {"connections", ctx_.connections.load()}};
    return write(text_response(req, ctx_.draining ? http::status::service_unavailable
                                                  : http::status::ok,
                               "application/json", h.dump()));
  }
  if (target == "/api/games") {
    return write(text_response(req, http::status::ok, "application/json",
                               ctx_.lobby.games_json()));
  }
  if (target == "/api/rooms") {
    return write(text_response(req, http::status::ok, "application/json",
                               ctx_.lobby.list_rooms().dump()));
  }

  if (target.rfind("/api/replays/", 0) == 0) {
    // A finished game as JSON: configuration, players, every action and the result. A game still
    // being played is not shown (its log would reveal hidden cards), except in test mode.
    const auto code = protocol::normalize_room_code(target.substr(13));
    std::optional<StoredRoom> stored;
    if (code) stored = ctx_.journal->load(*code);
    if (!stored) {
      return write(text_response(req, http::status::not_found, "application/json",
                                 json{{"error", "no_such_replay"},
                                      {"message", "no finished game with that code is kept"}}
                                     .dump()));
    }
    if (!stored->finished() && !ctx_.config.test_mode) {
      return write(text_response(req, http::status::conflict, "application/json",
                                 json{{"error", "still_playing"},
                                      {"message", "the replay is ready when the game ends"}}
                                     .dump()));
    }
    auto res = text_response(req, http::status::ok, "application/json",
                             stored->replay_json().dump(-1, ' ', false,
                                                        json::error_handler_t::replace));
    res.set(http::field::content_disposition,
            "attachment; filename=\"campfire-" + stored->code + ".json\"");
    return write(std::move(res));
  }

  // Static files of the browser client. Paths never climb out of the web root.
  if (target == "/") target = "/index.html";
  if (target.find("..") != std::string::npos || target.find('\\') != std::string::npos ||
      target.find('\0') != std::string::npos) {
    return write(text_response(req, http::status::bad_request, "text/plain", "bad path\n"));
  }
  const std::string path = ctx_.config.web_root + target;
  http::file_body::value_type body;
  beast::error_code fec;
  body.open(path.c_str(), beast::file_mode::scan, fec);
  if (fec) {
    return write(text_response(req, http::status::not_found, "text/plain", "not found\n"));
  }
  const auto size = body.size();
  if (req.method() == http::verb::head) {
    http::response<http::empty_body> res{http::status::ok, req.version()};
    common_headers(res, req.version(), req.keep_alive());
    res.set(http::field::content_type, mime_type(path));
    res.content_length(size);
    return write(std::move(res));
  }
  http::response<http::file_body> res{std::piecewise_construct, std::make_tuple(std::move(body)),
                                      std::make_tuple(http::status::ok, req.version())};
  common_headers(res, req.version(), req.keep_alive());
  res.set(http::field::content_type, mime_type(path));
  res.set(http::field::cache_control, "no-cache");
  res.content_length(size);
  write(std::move(res));
}

void HttpSession::on_write(bool keep_alive, beast::error_code ec, std::size_t) {
  if (ec) return;
  if (!keep_alive) {
    stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
    return;
  }
  do_read();
}

}  // namespace campfire::server
