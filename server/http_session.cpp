#include "server/http_session.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <boost/beast/version.hpp>
#include <boost/beast/websocket.hpp>
#include <type_traits>
#include <variant>

#include "server/http_routes.hpp"
#include "server/websocket_session.hpp"

namespace campfire::server {

namespace {

template <class Stream>
constexpr bool kTls = std::is_same_v<Stream, TlsStream>;

template <class Stream>
Stream make_stream(tcp::socket&& socket, ServerContext& ctx) {
  if constexpr (kTls<Stream>) {
    return Stream(std::move(socket), *ctx.tls);
  } else {
    return Stream(std::move(socket));
  }
}

}  // namespace

bool origin_allowed(const Config& config, std::string_view origin, std::string_view host) {
  if (config.allowed_origins.empty() || origin.empty()) return true;
  const std::string normal = normalize_origin(origin);
  if (normal.empty()) return false;
  // The page's own origin: the browser client served by this very server.
  std::string own_host;
  for (char ch : host) own_host += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  if (!own_host.empty() && normal.substr(normal.find("://") + 3) == own_host) return true;
  return std::find(config.allowed_origins.begin(), config.allowed_origins.end(), normal) !=
         config.allowed_origins.end();
}

template <class Stream>
HttpSession<Stream>::HttpSession(tcp::socket&& socket, ServerContext& ctx,
                                 std::unique_ptr<ServerContext::Ticket> ticket)
    : stream_(make_stream<Stream>(std::move(socket), ctx)), ctx_(ctx), ticket_(std::move(ticket)) {}

template <class Stream>
void HttpSession<Stream>::run() {
  boost::asio::dispatch(stream_.get_executor(), [self = this->shared_from_this()] {
    if constexpr (kTls<Stream>) {
      beast::get_lowest_layer(self->stream_)
          .expires_after(std::chrono::duration_cast<std::chrono::steady_clock::duration>(
              std::chrono::duration<double>(self->ctx_.config.handshake_timeout_s)));
      self->stream_.async_handshake(boost::asio::ssl::stream_base::server,
                                    beast::bind_front_handler(&HttpSession::on_handshake, self));
    } else {
      self->do_read();
    }
  });
}

template <class Stream>
void HttpSession<Stream>::on_handshake(beast::error_code ec) {
  if (ec) {
    spdlog::debug("{}: TLS handshake: {}", ticket_->address(), ec.message());
    return;
  }
  do_read();
}

template <class Stream>
void HttpSession<Stream>::do_read() {
  parser_.emplace();
  parser_->header_limit(8 * 1024);
  parser_->body_limit(16 * 1024);
  beast::get_lowest_layer(stream_).expires_after(
      std::chrono::duration_cast<std::chrono::steady_clock::duration>(
          std::chrono::duration<double>(ctx_.config.handshake_timeout_s)));
  http::async_read(stream_, buffer_, *parser_,
                   beast::bind_front_handler(&HttpSession::on_read, this->shared_from_this()));
}

template <class Stream>
void HttpSession<Stream>::on_read(beast::error_code ec, std::size_t) {
  if (ec == http::error::end_of_stream) return shutdown();
  if (ec) return;
  Request req = parser_->release();
  if (beast::websocket::is_upgrade(req)) return upgrade(std::move(req));

  // The answer may come from another thread (the admin API asks the rooms): write it on ours.
  auto self = this->shared_from_this();
  serve(ctx_, std::move(req), [self](Response res) {
    auto sp = std::make_shared<Response>(std::move(res));
    boost::asio::post(self->stream_.get_executor(),
                      [self, sp] { std::visit([&](auto& r) { self->write(std::move(r)); }, *sp); });
  });
}

template <class Stream>
void HttpSession<Stream>::upgrade(Request&& req) {
  if (req.target() != "/ws") {
    auto res = text_response(req, http::status::not_found, "text/plain", "WebSocket is at /ws\n");
    res.keep_alive(false);
    return write(std::move(res));
  }
  if (!origin_allowed(ctx_.config, req[http::field::origin], req[http::field::host])) {
    spdlog::warn("{}: WebSocket from origin {} refused", ticket_->address(),
                 std::string(req[http::field::origin]));
    auto res = text_response(req, http::status::forbidden, "text/plain",
                             "this origin may not open a WebSocket here\n");
    res.keep_alive(false);
    return write(std::move(res));
  }
  // Behind a trusted load balancer the connection is the client's it names, and counts
  // against that client's address from here on.
  const std::string peer = ticket_->address();
  ticket_ = ctx_.client_behind(std::move(ticket_), req["X-Forwarded-For"]);
  if (!ticket_) {
    ctx_.metrics.connection_refused();
    spdlog::warn("{} (through {}): too many connections from this address",
                 ProxyTrust::client_address(req["X-Forwarded-For"]).value_or("?"), peer);
    auto res = text_response(req, http::status::service_unavailable, "text/plain",
                             "too many connections from your address\n");
    res.keep_alive(false);
    return write(std::move(res));
  }
  beast::get_lowest_layer(stream_).expires_never();
  if constexpr (kTls<Stream>) {
    std::make_shared<WebSocketSession>(std::move(stream_), ctx_, std::move(ticket_))
        ->run(std::move(req));
  } else {
    std::make_shared<WebSocketSession>(stream_.release_socket(), ctx_, std::move(ticket_))
        ->run(std::move(req));
  }
}

template <class Stream>
template <class Response>
void HttpSession<Stream>::write(Response&& response) {
  auto sp = std::make_shared<std::decay_t<Response>>(std::forward<Response>(response));
  const bool keep = sp->keep_alive();
  http::async_write(stream_, *sp,
                    [self = this->shared_from_this(), sp, keep](
                        beast::error_code e, std::size_t n) { self->on_write(keep, e, n); });
}

template <class Stream>
void HttpSession<Stream>::on_write(bool keep_alive, beast::error_code ec, std::size_t) {
  if (ec) return;
  if (!keep_alive) return shutdown();
  do_read();
}

template <class Stream>
void HttpSession<Stream>::shutdown() {
  if constexpr (kTls<Stream>) {
    beast::get_lowest_layer(stream_).expires_after(std::chrono::seconds(5));
    stream_.async_shutdown([self = this->shared_from_this()](beast::error_code) {});
  } else {
    beast::error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
  }
}

template class HttpSession<beast::tcp_stream>;
template class HttpSession<TlsStream>;

}  // namespace campfire::server
