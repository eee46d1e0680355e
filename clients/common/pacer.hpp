// Keeps a client under the server's rate limit (PROTOCOL.md: 20 messages per second, bursts of
// 40) by waiting before a send that would exceed it. Against fast opponents, such as server bots
// with no thinking time, a bot would otherwise outrun the limit and get `rate_limited`.
#pragma once

#include <chrono>
#include <thread>

#include "protocol/token_bucket.hpp"

namespace campfire::client {

class Pacer {
 public:
  // A little under the server's defaults, so clock differences never tip it over.
  explicit Pacer(double per_second = 18, double burst = 30)
      : rate_{per_second, burst}, bucket_(rate_, TokenBucket::Clock::now()) {}

  // Blocks until one more message may be sent, and counts it.
  void wait() {
    while (!bucket_.take(rate_, TokenBucket::Clock::now())) {
      std::this_thread::sleep_for(bucket_.wait_time(rate_, TokenBucket::Clock::now()));
    }
  }

 private:
  Rate rate_;
  TokenBucket bucket_;
};

}  // namespace campfire::client
