// campfire-echo-server: a bare Beast WebSocket echo server, the transport ceiling campfire-load
// compares the real server with (same machine, same run, same client). One translation unit.
#include <CLI/CLI.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include <cstdio>
#include <memory>
#include <thread>
#include <vector>

namespace campfire::echo {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;

// One connection: reads a frame and writes it back, one at a time.
class Session : public std::enable_shared_from_this<Session> {
 public:
  explicit Session(tcp::socket&& socket) : ws_(std::move(socket)) {}

  void run() {
    // The same transport settings as campfire-server, so the comparison is fair.
    ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
    ws_.read_message_max(64 * 1024);
    ws_.auto_fragment(false);
    ws_.async_accept(beast::bind_front_handler(&Session::on_accept, shared_from_this()));
  }

 private:
  void on_accept(beast::error_code ec) {
    if (ec) return fail(ec, "accept");
    do_read();
  }
  void do_read() {
    ws_.async_read(buffer_, beast::bind_front_handler(&Session::on_read, shared_from_this()));
  }
  void on_read(beast::error_code ec, std::size_t) {
    if (ec) return fail(ec, "read");
    ws_.text(ws_.got_text());
    ws_.async_write(buffer_.data(),
                    beast::bind_front_handler(&Session::on_write, shared_from_this()));
  }
  void on_write(beast::error_code ec, std::size_t) {
    if (ec) return fail(ec, "write");
    buffer_.consume(buffer_.size());
    do_read();
  }
  void fail(beast::error_code ec, const char* what) {
    if (ec == asio::error::operation_aborted || ec == websocket::error::closed ||
        ec == asio::error::eof || ec == asio::error::connection_reset) {
      return;
    }
    std::fprintf(stderr, "campfire-echo-server: %s: %s\n", what, ec.message().c_str());
  }

  websocket::stream<beast::tcp_stream> ws_;
  beast::flat_buffer buffer_;
};

// Accepts connections and starts a session for each.
class Listener : public std::enable_shared_from_this<Listener> {
 public:
  Listener(asio::io_context& ioc, tcp::endpoint endpoint) : ioc_(ioc), acceptor_(ioc) {
    acceptor_.open(endpoint.protocol());
    acceptor_.set_option(asio::socket_base::reuse_address(true));
    acceptor_.bind(endpoint);
    acceptor_.listen(asio::socket_base::max_listen_connections);
  }
  std::uint16_t port() const { return acceptor_.local_endpoint().port(); }
  void run() { do_accept(); }

 private:
  void do_accept() {
    acceptor_.async_accept(asio::make_strand(ioc_),
                           beast::bind_front_handler(&Listener::on_accept, shared_from_this()));
  }
  void on_accept(beast::error_code ec, tcp::socket socket) {
    if (ec) {
      if (ec == asio::error::operation_aborted) return;
      std::fprintf(stderr, "campfire-echo-server: accept: %s\n", ec.message().c_str());
    } else {
      socket.set_option(tcp::no_delay(true), ec);
      std::make_shared<Session>(std::move(socket))->run();
    }
    do_accept();
  }

  asio::io_context& ioc_;
  tcp::acceptor acceptor_;
};

int main_echo(int argc, char** argv) {
  std::string bind = "127.0.0.1";
  std::uint16_t port = 0;
  int threads = 1;
  CLI::App app{"campfire-echo-server: a bare WebSocket echo server"};
  app.add_option("--bind", bind, "address to listen on");
  app.add_option("--port", port, "port (0: any free one)");
  app.add_option("--threads", threads, "worker threads")->check(CLI::Range(1, 64));
  CLI11_PARSE(app, argc, argv);

  asio::io_context ioc(threads);
  auto listener =
      std::make_shared<Listener>(ioc, tcp::endpoint(asio::ip::make_address(bind), port));
  listener->run();
  std::printf("listening on %s:%u\n", bind.c_str(), static_cast<unsigned>(listener->port()));
  std::fflush(stdout);
  asio::signal_set signals(ioc, SIGINT, SIGTERM);
  signals.async_wait([&ioc](beast::error_code, int) { ioc.stop(); });
  std::vector<std::thread> pool;
  for (int i = 1; i < threads; ++i) pool.emplace_back([&ioc] { ioc.run(); });
  ioc.run();
  for (auto& t : pool) t.join();
  return 0;
}

}  // namespace campfire::echo

int main(int argc, char** argv) {
  return campfire::echo::main_echo(argc, argv);
}
