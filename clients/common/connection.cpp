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
  // A read outlives a receive() that timed out: cancelling a WebSocket read would leave the stream
  // unusable, so the next receive() waits on the same read instead of starting another.
  bool reading = false;
  beast::error_code read_result;
  bool read_done = false;

  template <class F>
  auto with_stream(F&& f) {
    if (secure) return f(*secure);
    return f(*plain);
  }
};

Connection::Connection(const std::string& host, std::uint16_t port, bool tls, bool insecure,
                       const std::string& path, bool compression)
    : impl_(std::make_unique<Impl>()) {
  tcp::resolver resolver(impl_->ioc);
  const auto endpoints = resolver.resolve(host, std::to_string(port));
  const std::string host_header = host + ":" + std::to_string(port);
  // Each step runs asynchronously under a deadline: a server that accepts the TCP connection
  // but never answers must not hang the client.
  const auto step = [this](auto& lowest, auto start) {
    beast::error_code ec;
    lowest.expires_after(std::chrono::seconds(10));
    start([&ec](beast::error_code e, auto&&...) { ec = e; });
    impl_->ioc.restart();
    impl_->ioc.run();
    lowest.expires_never();
    if (ec) throw beast::system_error(ec);
  };
  // Frames travel compressed when the server agrees (Campfire's does): a move's update is then a
  // fifth of its size. What a client sends is short, so it goes as it is.
  const auto offer_compression = [compression](auto& ws) {
    if (!compression) return;
    websocket::permessage_deflate pmd;
    pmd.client_enable = true;
    pmd.msg_size_threshold = 1024;
    ws.set_option(pmd);
  };
  if (tls) {
    impl_->ssl.set_verify_mode(insecure ? asio::ssl::verify_none : asio::ssl::verify_peer);
    if (!insecure) impl_->ssl.set_default_verify_paths();
    impl_->secure = std::make_unique<TlsStream>(impl_->ioc, impl_->ssl);
    auto& ws = *impl_->secure;
    auto& lowest = beast::get_lowest_layer(ws);
    step(lowest, [&](auto handler) { lowest.async_connect(endpoints, handler); });
    SSL_set_tlsext_host_name(ws.next_layer().native_handle(), host.c_str());
    step(lowest, [&](auto handler) {
      ws.next_layer().async_handshake(asio::ssl::stream_base::client, handler);
    });
    offer_compression(ws);
    step(lowest, [&](auto handler) { ws.async_handshake(host_header, path, handler); });
  } else {
    impl_->plain = std::make_unique<PlainStream>(impl_->ioc);
    auto& ws = *impl_->plain;
    auto& lowest = beast::get_lowest_layer(ws);
    step(lowest, [&](auto handler) { lowest.async_connect(endpoints, handler); });
    offer_compression(ws);
    step(lowest, [&](auto handler) { ws.async_handshake(host_header, path, handler); });
  }
  impl_->with_stream([](auto& ws) {
    ws.read_message_max(64 * 1024 * 1024);
    return 0;
  });
  impl_->is_open = true;
}

Connection::~Connection() {
  close();
}

void Connection::send(const json& message) {
  send_text(message.dump());
}

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
  if (!impl_->reading) {
    impl_->reading = true;
    impl_->read_done = false;
    impl_->with_stream([&](auto& ws) {
      ws.async_read(impl_->buffer, [impl = impl_.get()](beast::error_code ec, std::size_t) {
        impl->read_result = ec;
        impl->read_done = true;
      });
      return 0;
    });
  }
  impl_->ioc.restart();
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!impl_->read_done && std::chrono::steady_clock::now() < deadline &&
         !impl_->ioc.stopped()) {
    impl_->ioc.run_one_until(deadline);
  }
  if (!impl_->read_done) return std::nullopt;  // the read stays pending for the next call
  impl_->reading = false;
  if (impl_->read_result) {
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

bool Connection::open() const {
  return impl_->is_open;
}

void Connection::close() {
  if (!impl_ || !impl_->is_open) return;
  impl_->is_open = false;
  beast::error_code ec;
  // Close asynchronously, so a pending read receives the server's close frame, and give up on
  // a peer that does not answer in time rather than block on it.
  bool closed = false;
  impl_->with_stream([&](auto& ws) {
    ws.async_close(websocket::close_code::normal, [&](beast::error_code) { closed = true; });
    return 0;
  });
  impl_->ioc.restart();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  auto finished = [&] { return closed && (!impl_->reading || impl_->read_done); };
  while (!finished() && std::chrono::steady_clock::now() < deadline) {
    if (impl_->ioc.run_one_until(deadline) == 0) break;
  }
  if (!finished()) {
    impl_->with_stream([&](auto& ws) {
      beast::get_lowest_layer(ws).socket().close(ec);
      return 0;
    });
    impl_->ioc.restart();
    impl_->ioc.run_for(std::chrono::milliseconds(100));
  }
  impl_->reading = false;
}

void Connection::abort() {
  if (!impl_ || !impl_->is_open) return;
  impl_->is_open = false;
  impl_->with_stream([](auto& ws) {
    beast::error_code ignored;
    auto& socket = beast::get_lowest_layer(ws).socket();
    socket.shutdown(tcp::socket::shutdown_both, ignored);
    socket.close(ignored);
    return 0;
  });
  // Let a pending read see the closed socket, so nothing refers to it afterwards.
  impl_->ioc.restart();
  impl_->ioc.poll();
  impl_->reading = false;
}

}  // namespace campfire::client
