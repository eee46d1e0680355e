// The whole server: threads running one io_context, the lobby, the listener, and a clean stop.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include <memory>
#include <thread>
#include <vector>

#include "server/config.hpp"
#include "server/context.hpp"

namespace campfire::server {

class Listener;

class Server {
 public:
  explicit Server(Config config);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Binds, starts the worker threads and returns the bound port (an ephemeral one for port 0).
  std::uint16_t start();
  // Stops on SIGINT or SIGTERM: stop accepting, tell every client, finish writes, return.
  void run_until_signal();
  // Drains and stops; safe to call more than once.
  void stop();
  ServerContext& context() { return *ctx_; }

 private:
  void sweep_later();
  // The sweep of every connection's silence (ServerContext::check_silence).
  void listen_for_silence();
  // Takes this node's lease and wires the directory to the lobby (cluster mode).
  void join_cluster(std::uint16_t port);
  // Keeps this node's rooms in the cluster's room list.
  void publish_later();

  Config config_;
  // Held by pointer so the destructor can end the io_context (and the sessions its pending
  // handlers keep alive) while the context those sessions use still exists.
  std::unique_ptr<boost::asio::io_context> ioc_;
  std::unique_ptr<ServerContext> ctx_;
  std::shared_ptr<Listener> listener_;
  std::unique_ptr<boost::asio::steady_timer> sweeper_;
  std::unique_ptr<boost::asio::steady_timer> publisher_;
  std::unique_ptr<boost::asio::steady_timer> silence_;
  std::vector<std::thread> threads_;
  bool stopped_ = false;
};

// Where the browser client's files are when the operator does not say.
std::string default_web_root(const char* argv0);

}  // namespace campfire::server
