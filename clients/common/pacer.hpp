// Keeps a client under the server's rate limit (PROTOCOL.md: 20 messages per second, bursts of
// 40) by waiting before a send that would exceed it. Against fast opponents, such as server bots
// with no thinking time, a bot would otherwise outrun the limit and get `rate_limited`.
#pragma once

#include <algorithm>
#include <chrono>
#include <thread>

namespace campfire::client {

class Pacer {
 public:
  // A little under the server's defaults, so clock differences never tip it over.
  explicit Pacer(double per_second = 18, double burst = 30)
      : per_second_(per_second), burst_(burst), tokens_(burst), refilled_(Clock::now()) {}

  // Blocks until one more message may be sent, and counts it.
  void wait() {
    refill();
    if (tokens_ < 1.0) {
      const auto missing = std::chrono::duration<double>((1.0 - tokens_) / per_second_);
      std::this_thread::sleep_for(std::chrono::duration_cast<Clock::duration>(missing));
      refill();
    }
    tokens_ = std::max(0.0, tokens_ - 1.0);
  }

 private:
  using Clock = std::chrono::steady_clock;

  void refill() {
    const auto now = Clock::now();
    tokens_ = std::min(
        burst_, tokens_ + std::chrono::duration<double>(now - refilled_).count() * per_second_);
    refilled_ = now;
  }

  double per_second_;
  double burst_;
  double tokens_;
  Clock::time_point refilled_;
};

}  // namespace campfire::client
