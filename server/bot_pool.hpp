// The workers on which server bots that search (expert) think, shared by every room: a room never
// waits for a search on its own strand, so its players' chat and moves, and every other room on
// the same thread, are answered while a bot thinks. A few threads serve the whole server; a room
// hands over a copy of its state and gets the chosen move posted back to its strand.
#pragma once

#include <boost/asio/post.hpp>
#include <boost/asio/thread_pool.hpp>

#include <atomic>
#include <cstddef>
#include <utility>

#include "server/metrics.hpp"

namespace campfire::server {

class BotPool {
 public:
  BotPool(std::size_t threads, Metrics& metrics) : pool_(threads), metrics_(metrics) {}
  ~BotPool() { stop(); }
  BotPool(const BotPool&) = delete;
  BotPool& operator=(const BotPool&) = delete;

  // Runs `think` on a worker. It should end soon once stopping() is true.
  template <class F>
  void think(F&& job) {
    boost::asio::post(pool_, [this, f = std::forward<F>(job)]() mutable {
      metrics_.bot_search_started();
      f();
      metrics_.bot_search_ended();
    });
  }

  // True once the server stops: searches still running end early.
  bool stopping() const { return stopping_.load(std::memory_order_relaxed); }
  // Ends running searches early, drops queued ones and waits for the workers (idempotent).
  void stop() {
    stopping_.store(true, std::memory_order_relaxed);
    pool_.stop();
    pool_.join();
  }

 private:
  boost::asio::thread_pool pool_;
  Metrics& metrics_;
  std::atomic<bool> stopping_{false};
};

}  // namespace campfire::server
