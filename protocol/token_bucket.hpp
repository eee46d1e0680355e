// The one token bucket behind every rate limit: the server's messages per connection and rejoin
// attempts per address, and the clients' pacing under the server's limit. A bucket holds at most
// `burst` tokens and gains `per_second` tokens a second; whatever it limits takes one token.
//
// The rate is kept apart from the bucket and passed to each call: the server keeps a bucket per
// connection, and sixteen bytes each (tokens and time) is all they need while every connection
// shares the configured rate. Times are passed in, so tests need no clock.
#pragma once

#include <algorithm>
#include <chrono>

namespace campfire {

struct Rate {
  double per_second = 0;  // tokens gained each second
  double burst = 0;       // the most a bucket holds (and holds when new)
};

class TokenBucket {
 public:
  using Clock = std::chrono::steady_clock;

  // A full bucket.
  TokenBucket(const Rate& rate, Clock::time_point now) : tokens_(rate.burst), refilled_(now) {}

  // Takes a token if there is one.
  bool take(const Rate& rate, Clock::time_point now) {
    refill(rate, now);
    if (tokens_ < 1.0) return false;
    tokens_ -= 1.0;
    return true;
  }
  // Returns a token taken for something that turned out not to count (never above the burst).
  void give_back(const Rate& rate, Clock::time_point now) {
    refill(rate, now);
    tokens_ = std::min(rate.burst, tokens_ + 1.0);
  }
  // How long until take() succeeds: zero if it would now, Clock::duration::max() if never.
  Clock::duration wait_time(const Rate& rate, Clock::time_point now) const {
    const double have = tokens(rate, now);
    if (have >= 1.0) return Clock::duration::zero();
    if (rate.per_second <= 0 || rate.burst < 1.0) return Clock::duration::max();
    return std::chrono::ceil<Clock::duration>(
        std::chrono::duration<double>((1.0 - have) / rate.per_second));
  }
  // The tokens there are at `now`.
  double tokens(const Rate& rate, Clock::time_point now) const {
    const double elapsed = std::chrono::duration<double>(now - refilled_).count();
    return std::min(rate.burst, tokens_ + std::max(0.0, elapsed) * rate.per_second);
  }
  // Full again: the bucket remembers nothing of its use and may be forgotten.
  bool full(const Rate& rate, Clock::time_point now) const { return tokens(rate, now) >= rate.burst; }

 private:
  void refill(const Rate& rate, Clock::time_point now) {
    tokens_ = tokens(rate, now);
    refilled_ = std::max(refilled_, now);
  }

  double tokens_;
  Clock::time_point refilled_;
};

}  // namespace campfire
