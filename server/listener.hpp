// Accepts TCP connections and hands each to an HTTP session, within the per-address limit.
#pragma once

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core/error.hpp>

#include <memory>

#include "server/context.hpp"

namespace campfire::server {

class Listener : public std::enable_shared_from_this<Listener> {
 public:
  Listener(ServerContext& ctx, boost::asio::ip::tcp::endpoint endpoint);
  void run();
  void stop();
  std::uint16_t port() const { return port_; }

 private:
  void do_accept();
  void on_accept(boost::beast::error_code ec, boost::asio::ip::tcp::socket socket);

  ServerContext& ctx_;
  boost::asio::ip::tcp::acceptor acceptor_;
  std::uint16_t port_ = 0;
};

}  // namespace campfire::server
