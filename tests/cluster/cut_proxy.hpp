// A TCP relay on 127.0.0.1 in front of a server, that a test can cut: while cut, nothing crosses
// in either direction and connections stay open, as in a network partition (not a refusal, which
// a client would notice at once). Healing lets traffic flow again; connections the client gave up
// on meanwhile are closed by it.
#pragma once

#include <boost/asio.hpp>

#include <array>
#include <atomic>
#include <functional>
#include <future>
#include <list>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace campfire::server::testing {

class CutProxy {
 public:
  explicit CutProxy(std::uint16_t upstream_port)
      : upstream_port_(upstream_port),
        acceptor_(ioc_, {boost::asio::ip::make_address("127.0.0.1"), 0}),
        work_(ioc_.get_executor()) {
    port_ = acceptor_.local_endpoint().port();
    accept();
    thread_ = std::thread([this] { ioc_.run(); });
  }
  ~CutProxy() {
    boost::asio::post(ioc_, [this] {
      boost::system::error_code ignored;
      acceptor_.close(ignored);
      for (auto& w : pipes_) {
        if (auto p = w.lock()) p->close();
      }
    });
    work_.reset();
    ioc_.stop();
    thread_.join();
  }
  CutProxy(const CutProxy&) = delete;
  CutProxy& operator=(const CutProxy&) = delete;

  std::uint16_t port() const { return port_; }
  void cut() {
    run([this] { cut_ = true; });
  }
  void heal() {
    run([this] {
      cut_ = false;
      auto waiting = std::move(parked_);
      parked_.clear();
      for (auto& resume : waiting) resume();
    });
  }
  bool is_cut() const { return cut_; }

 private:
  struct Pipe : std::enable_shared_from_this<Pipe> {
    explicit Pipe(boost::asio::io_context& ioc) : client(ioc), server(ioc) {}
    boost::asio::ip::tcp::socket client;
    boost::asio::ip::tcp::socket server;
    std::array<char, 16384> up{};
    std::array<char, 16384> down{};
    void close() {
      boost::system::error_code ignored;
      client.close(ignored);
      server.close(ignored);
    }
  };

  template <class F>
  void run(F f) {
    std::promise<void> done;
    auto fut = done.get_future();
    boost::asio::post(ioc_, [&] {
      f();
      done.set_value();
    });
    fut.wait();
  }

  void accept() {
    auto pipe = std::make_shared<Pipe>(ioc_);
    acceptor_.async_accept(pipe->client, [this, pipe](boost::system::error_code ec) {
      if (ec) return;
      pipes_.push_back(pipe);
      auto connect = [this, pipe] {
        pipe->server.async_connect({boost::asio::ip::make_address("127.0.0.1"), upstream_port_},
                                   [this, pipe](boost::system::error_code cec) {
                                     if (cec) return pipe->close();
                                     relay(pipe, pipe->client, pipe->server, pipe->up);
                                     relay(pipe, pipe->server, pipe->client, pipe->down);
                                   });
      };
      if (cut_) {
        parked_.push_back(connect);
      } else {
        connect();
      }
      accept();
    });
  }

  void relay(std::shared_ptr<Pipe> pipe, boost::asio::ip::tcp::socket& from,
             boost::asio::ip::tcp::socket& to, std::array<char, 16384>& buf) {
    from.async_read_some(
        boost::asio::buffer(buf),
        [this, pipe, &from, &to, &buf](boost::system::error_code ec, std::size_t n) {
          if (ec) return pipe->close();
          auto forward = [this, pipe, &from, &to, &buf, n] {
            boost::asio::async_write(
                to, boost::asio::buffer(buf.data(), n),
                [this, pipe, &from, &to, &buf](boost::system::error_code wec, std::size_t) {
                  if (wec) return pipe->close();
                  relay(pipe, from, to, buf);
                });
          };
          // Cut: hold what was read until healed.
          if (cut_) {
            parked_.push_back(forward);
          } else {
            forward();
          }
        });
  }

  std::uint16_t upstream_port_;
  boost::asio::io_context ioc_;
  boost::asio::ip::tcp::acceptor acceptor_;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_;
  std::uint16_t port_ = 0;
  std::atomic<bool> cut_{false};
  std::vector<std::function<void()>> parked_;
  std::vector<std::weak_ptr<Pipe>> pipes_;
  std::thread thread_;
};

}  // namespace campfire::server::testing
