#include "clients/common/http_get.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <stdexcept>

namespace campfire::client {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

namespace {

// Runs one asynchronous step to completion or until the stream's deadline; throws on failure.
template <class Lowest, class Start>
void step(asio::io_context& ioc, Lowest& lowest, std::chrono::milliseconds timeout, Start start) {
  beast::error_code ec;
  lowest.expires_after(timeout);
  start([&ec](beast::error_code e, auto&&...) { ec = e; });
  ioc.restart();
  ioc.run();
  lowest.expires_never();
  if (ec) throw beast::system_error(ec);
}

template <class Stream>
HttpResponse exchange(asio::io_context& ioc, Stream& stream, beast::tcp_stream& lowest,
                      const std::string& host, const std::string& target,
                      std::chrono::milliseconds timeout) {
  http::request<http::empty_body> req{http::verb::get, target, 11};
  req.set(http::field::host, host);
  req.set(http::field::user_agent, "campfire-cli");
  req.set(http::field::connection, "close");
  step(ioc, lowest, timeout, [&](auto handler) { http::async_write(stream, req, handler); });
  beast::flat_buffer buffer;
  http::response_parser<http::string_body> parser;
  parser.body_limit(4 * 1024 * 1024);
  step(ioc, lowest, timeout,
       [&](auto handler) { http::async_read(stream, buffer, parser, handler); });
  const auto& res = parser.get();
  HttpResponse out;
  out.status = static_cast<int>(res.result_int());
  out.content_type = std::string(res[http::field::content_type]);
  out.body = res.body();
  return out;
}

}  // namespace

HttpResponse http_get(const std::string& host, std::uint16_t port, bool tls, bool insecure,
                      const std::string& target, std::chrono::milliseconds timeout) {
  asio::io_context ioc;
  tcp::resolver resolver(ioc);
  const auto endpoints = resolver.resolve(host, std::to_string(port));
  const std::string host_header = host + ":" + std::to_string(port);
  if (!tls) {
    beast::tcp_stream stream(ioc);
    step(ioc, stream, timeout, [&](auto handler) { stream.async_connect(endpoints, handler); });
    return exchange(ioc, stream, stream, host_header, target, timeout);
  }
  asio::ssl::context ssl{asio::ssl::context::tls_client};
  ssl.set_verify_mode(insecure ? asio::ssl::verify_none : asio::ssl::verify_peer);
  if (!insecure) ssl.set_default_verify_paths();
  beast::ssl_stream<beast::tcp_stream> stream(ioc, ssl);
  auto& lowest = beast::get_lowest_layer(stream);
  step(ioc, lowest, timeout, [&](auto handler) { lowest.async_connect(endpoints, handler); });
  SSL_set_tlsext_host_name(stream.native_handle(), host.c_str());
  step(ioc, lowest, timeout,
       [&](auto handler) { stream.async_handshake(asio::ssl::stream_base::client, handler); });
  return exchange(ioc, stream, lowest, host_header, target, timeout);
}

}  // namespace campfire::client
