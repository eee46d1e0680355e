// campfire-echo-server: a bare Beast WebSocket echo server, the transport ceiling campfire-load
// compares the real server with (same machine, same run, same client). One translation unit.
//
// A connection that opens `/relay/<name>` instead of any other path joins the relay group
// <name>: every frame one member sends is written to every member, itself included. That is the
// least any server must do for a move in a room with one connection per seat (read one frame,
// write one to each seat), so a group of a room's size is the ceiling for a room's actions.
#include <CLI/CLI.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace campfire::echo {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;

class Session;

// The relay groups by name. Sessions may run on several threads, so the map has a lock; a frame
// reaches another member through that member's strand.
class Groups {
 public:
  void join(const std::string& name, const std::shared_ptr<Session>& s) {
    const std::lock_guard lock(mutex_);
    groups_[name].push_back(s);
  }
  void leave(const std::string& name, const Session* s) {
    const std::lock_guard lock(mutex_);
    const auto it = groups_.find(name);
    if (it == groups_.end()) return;
    std::erase_if(it->second, [s](const auto& w) {
      const auto m = w.lock();
      return !m || m.get() == s;
    });
    if (it->second.empty()) groups_.erase(it);
  }
  std::vector<std::shared_ptr<Session>> members(const std::string& name) {
    const std::lock_guard lock(mutex_);
    std::vector<std::shared_ptr<Session>> out;
    const auto it = groups_.find(name);
    if (it == groups_.end()) return out;
    for (const auto& w : it->second) {
      if (auto m = w.lock()) out.push_back(std::move(m));
    }
    return out;
  }

 private:
  std::mutex mutex_;
  std::map<std::string, std::vector<std::weak_ptr<Session>>> groups_;
};

// One connection: echoes each frame back, or relays it to its group; one write in flight behind
// a queue.
class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(tcp::socket&& socket, Groups& groups) : ws_(std::move(socket)), groups_(groups) {}
  ~Session() {
    if (!group_.empty()) groups_.leave(group_, this);
  }

  void run() {
    // The same transport settings as campfire-server, so the comparison is fair.
    ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
    ws_.read_message_max(64 * 1024);
    ws_.auto_fragment(false);
    // The request is read first: its path says whether this is an echo or a relay member.
    request_ = std::make_unique<http::request<http::string_body>>();
    http::async_read(beast::get_lowest_layer(ws_), buffer_, *request_,
                     beast::bind_front_handler(&Session::on_request, shared_from_this()));
  }

  // Queues a frame shared with the rest of a group (on this session's strand).
  void deliver(std::shared_ptr<const std::string> frame) {
    queue_.push_back(std::move(frame));
    if (queue_.size() == 1) do_write();
  }

 private:
  void on_request(beast::error_code ec, std::size_t) {
    if (ec) return fail(ec, "request");
    constexpr std::string_view kRelay = "/relay/";
    const std::string_view target = request_->target();
    if (target.starts_with(kRelay) && target.size() > kRelay.size()) {
      group_ = std::string(target.substr(kRelay.size()));
      groups_.join(group_, shared_from_this());
    }
    ws_.async_accept(*request_,
                     beast::bind_front_handler(&Session::on_accept, shared_from_this()));
  }
  void on_accept(beast::error_code ec) {
    if (ec) return fail(ec, "accept");
    // What the request needed is not kept: an idle connection costs what it did before.
    request_.reset();
    buffer_.shrink_to_fit();
    do_read();
  }
  void do_read() {
    ws_.async_read(buffer_, beast::bind_front_handler(&Session::on_read, shared_from_this()));
  }
  void on_read(beast::error_code ec, std::size_t) {
    if (ec) return fail(ec, "read");
    ws_.text(ws_.got_text());
    const auto data = buffer_.cdata();
    auto frame =
        std::make_shared<const std::string>(static_cast<const char*>(data.data()), data.size());
    buffer_.consume(buffer_.size());
    if (group_.empty()) {
      deliver(std::move(frame));
    } else {
      for (auto& m : groups_.members(group_)) {
        if (m.get() == this) {
          deliver(frame);
        } else {
          asio::post(m->ws_.get_executor(), [m, frame] { m->deliver(frame); });
        }
      }
    }
    do_read();
  }
  void do_write() {
    ws_.async_write(asio::buffer(*queue_.front()),
                    beast::bind_front_handler(&Session::on_write, shared_from_this()));
  }
  void on_write(beast::error_code ec, std::size_t) {
    if (ec) return fail(ec, "write");
    queue_.erase(queue_.begin());
    if (!queue_.empty()) do_write();
  }
  void fail(beast::error_code ec, const char* what) {
    if (ec == asio::error::operation_aborted || ec == websocket::error::closed ||
        ec == asio::error::eof || ec == asio::error::connection_reset ||
        ec == http::error::end_of_stream) {
      return;
    }
    std::fprintf(stderr, "campfire-echo-server: %s: %s\n", what, ec.message().c_str());
  }

  websocket::stream<beast::tcp_stream> ws_;
  Groups& groups_;
  std::string group_;  // empty: an echo connection
  beast::flat_buffer buffer_;
  std::unique_ptr<http::request<http::string_body>> request_;  // until the handshake ends
  // A vector, not a deque: an empty deque keeps a block, which would count against every idle
  // connection of `hold --echo`.
  std::vector<std::shared_ptr<const std::string>> queue_;
};

// Accepts connections and starts a session for each.
class Listener : public std::enable_shared_from_this<Listener> {
 public:
  Listener(asio::io_context& ioc, tcp::endpoint endpoint, Groups& groups)
      : ioc_(ioc), acceptor_(ioc), groups_(groups) {
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
      std::make_shared<Session>(std::move(socket), groups_)->run();
    }
    do_accept();
  }

  asio::io_context& ioc_;
  tcp::acceptor acceptor_;
  Groups& groups_;
};

int main_echo(int argc, char** argv) {
  std::string bind = "127.0.0.1";
  std::uint16_t port = 0;
  int threads = 1;
  CLI::App app{
      "campfire-echo-server: a bare WebSocket echo server; a connection to /relay/<name> has "
      "its frames written to every connection of that name instead"};
  app.add_option("--bind", bind, "address to listen on");
  app.add_option("--port", port, "port (0: any free one)");
  app.add_option("--threads", threads, "worker threads")->check(CLI::Range(1, 64));
  CLI11_PARSE(app, argc, argv);

  asio::io_context ioc(threads);
  Groups groups;
  auto listener = std::make_shared<Listener>(
      ioc, tcp::endpoint(asio::ip::make_address(bind), port), groups);
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
