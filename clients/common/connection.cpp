#include "clients/common/connection.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/websocket/ssl.hpp>
#include <deque>
#include <stdexcept>
#include <variant>

namespace campfire::client {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;

using PlainStream = websocket::stream<beast::tcp_stream>;
using TlsStream = websocket::stream<beast::ssl_stream<beast::tcp_stream>>;

struct Connection::Impl {
  asio::io_context ioc;
  asio::ssl::context ssl{asio::ssl::context::tls_client};
  std::unique_ptr<PlainStream> plain;
  std::unique_ptr<TlsStream> secure;
  beast::flat_buffer buffer;
  std::deque<std::string> pending;  // messages read while waiting for a reply
  bool is_open = false;

  template <class F>
  auto with_stream(F&& f) {
    if (secure) return f(*secure);
    return f(*plain);
  }
};

Connection::Connection(const std::string& host, std::uint16_t port, bool tls, bool insecure,
                       const std::string& path)
    : impl_(std::make_unique<Impl>()) {
  tcp::resolver resolver(impl_->ioc);
  const auto endpoints = resolver.resolve(host, std::to_string(port));
  const std::string host_header = host + ":" + std::to_string(port);
  if (tls) {
    impl_->ssl.set_verify_mode(insecure ? asio::ssl::verify_none : asio::ssl::verify_peer);
    if (!insecure) impl_->ssl.set_default_verify_paths();
    impl_->secure = std::make_unique<TlsStream>(impl_->ioc, impl_->ssl);
    beast::get_lowest_layer(*impl_->secure).connect(endpoints);
    SSL_set_tlsext_host_name(impl_->secure->next_layer().native_handle(), host.c_str());
    impl_->secure->next_layer().handshake(asio::ssl::stream_base::client);
    impl_->secure->handshake(host_header, path);
  } else {
    impl_->plain = std::make_unique<PlainStream>(impl_->ioc);
    beast::get_lowest_layer(*impl_->plain).connect(endpoints);
    impl_->plain->handshake(host_header, path);
  }
  impl_->with_stream([](auto& ws) {
    ws.read_message_max(64 * 1024 * 1024);
    return 0;
  });
  impl_->is_open = true;
}

Connection::~Connection() { close(); }

void Connection::send(const json& message) { send_text(message.dump()); }

void Connection::send_text(const std::string& text) {
  impl_->with_stream([&](auto& ws) {
    ws.text(true);
    ws.write(asio::buffer(text));
    return 0;
  });
}

void Connection::send_binary(const std::string& bytes) {
  impl_->with_stream([&](auto& ws) {
    ws.binary(true);
    ws.write(asio::buffer(bytes));
    return 0;
  });
}

std::optional<std::string> Connection::receive_text(std::chrono::milliseconds timeout) {
  if (!impl_->pending.empty()) {
    std::string front = std::move(impl_->pending.front());
    impl_->pending.pop_front();
    return front;
  }
  if (!impl_->is_open) return std::nullopt;
  beast::error_code result = asio::error::would_block;
  bool done = false;
  impl_->with_stream([&](auto& ws) {
    ws.async_read(impl_->buffer, [&](beast::error_code ec, std::size_t) {
      result = ec;
      done = true;
    });
    return 0;
  });
  impl_->ioc.restart();
  impl_->ioc.run_for(timeout);
  if (!done) {
    // Timed out: abandon the read by cancelling it, then let the cancellation finish.
    impl_->with_stream([](auto& ws) {
      beast::get_lowest_layer(ws).socket().cancel();
      return 0;
    });
    impl_->ioc.restart();
    impl_->ioc.run();
    if (result == asio::error::operation_aborted) {
      // A cancelled WebSocket read leaves the stream unusable; this connection is done.
      impl_->is_open = false;
    }
    return std::nullopt;
  }
  if (result) {
    impl_->is_open = false;
    return std::nullopt;
  }
  std::string text = beast::buffers_to_string(impl_->buffer.data());
  impl_->buffer.consume(impl_->buffer.size());
  return text;
}

std::optional<json> Connection::receive(std::chrono::milliseconds timeout) {
  auto text = receive_text(timeout);
  if (!text) return std::nullopt;
  return json::parse(*text);
}

std::optional<json> Connection::request(json message, std::chrono::milliseconds timeout) {
  const std::int64_t id = next_id_++;
  message["id"] = id;
  send(message);
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::deque<std::string> others;
  std::optional<json> found;
  while (!found) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) break;
    auto text = receive_text(left);
    if (!text) break;
    json m = json::parse(*text);
    if (m.contains("id") && m["id"] == id) {
      found = std::move(m);
    } else {
      others.push_back(std::move(*text));
    }
  }
  for (auto it = others.rbegin(); it != others.rend(); ++it) impl_->pending.push_front(*it);
  return found;
}

bool Connection::open() const { return impl_->is_open; }

void Connection::close() {
  if (!impl_ || !impl_->is_open) return;
  impl_->is_open = false;
  beast::error_code ec;
  impl_->with_stream([&](auto& ws) {
    ws.close(websocket::close_code::normal, ec);
    return 0;
  });
}

}  // namespace campfire::client
