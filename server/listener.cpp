#include "server/listener.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>
#include <chrono>
#include <future>
#include <boost/beast/core/bind_handler.hpp>

#include "server/http_session.hpp"
#include "server/websocket_session.hpp"

namespace campfire::server {

Listener::Listener(ServerContext& ctx, boost::asio::ip::tcp::endpoint endpoint)
    : ctx_(ctx), acceptor_(boost::asio::make_strand(ctx.ioc)) {
  acceptor_.open(endpoint.protocol());
  acceptor_.set_option(boost::asio::socket_base::reuse_address(true));
  acceptor_.bind(endpoint);
  acceptor_.listen(boost::asio::socket_base::max_listen_connections);
  port_ = acceptor_.local_endpoint().port();
}

void Listener::run() { do_accept(); }

void Listener::stop() {
  // Close on the acceptor's strand and wait for it, so no connection is accepted after stop().
  auto closed = std::make_shared<std::promise<void>>();
  auto done = closed->get_future();
  boost::asio::post(acceptor_.get_executor(), [self = shared_from_this(), closed] {
    boost::system::error_code ec;
    self->acceptor_.close(ec);
    closed->set_value();
  });
  done.wait_for(std::chrono::seconds(2));
}

void Listener::do_accept() {
  acceptor_.async_accept(boost::asio::make_strand(ctx_.ioc),
                         boost::beast::bind_front_handler(&Listener::on_accept,
                                                          shared_from_this()));
}

void Listener::on_accept(boost::beast::error_code ec, boost::asio::ip::tcp::socket socket) {
  if (ec == boost::asio::error::operation_aborted) return;
  if (ec) {
    spdlog::warn("accept: {}", ec.message());
  } else if (!ctx_.draining) {
    boost::system::error_code ep_ec;
    const auto remote = socket.remote_endpoint(ep_ec);
    const std::string address = ep_ec ? "unknown" : remote.address().to_string();
    if (auto ticket = ctx_.admit(address)) {
      ctx_.metrics.connection_accepted();
      socket.set_option(boost::asio::ip::tcp::no_delay(true), ep_ec);
      if (ctx_.tls) {
        std::make_shared<HttpSession<TlsStream>>(std::move(socket), ctx_, std::move(ticket))
            ->run();
      } else {
        std::make_shared<HttpSession<beast::tcp_stream>>(std::move(socket), ctx_,
                                                         std::move(ticket))
            ->run();
      }
    } else {
      ctx_.metrics.connection_refused();
      spdlog::warn("{}: too many connections from this address", address);
    }
  }
  if (acceptor_.is_open()) do_accept();
}

}  // namespace campfire::server
