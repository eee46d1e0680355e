// The token bucket behind every rate limit, on a clock the test moves by hand.
#include "protocol/token_bucket.hpp"

#include <gtest/gtest.h>

namespace campfire {
namespace {

using namespace std::chrono_literals;
using Clock = TokenBucket::Clock;

TEST(TokenBucket, ANewBucketAllowsItsBurstAndThenRefusesUntilItRefills) {
  const Rate rate{2, 3};  // two a second, three at once
  const Clock::time_point t0{};
  TokenBucket b(rate, t0);
  EXPECT_TRUE(b.take(rate, t0));
  EXPECT_TRUE(b.take(rate, t0));
  EXPECT_TRUE(b.take(rate, t0));
  EXPECT_FALSE(b.take(rate, t0));
  EXPECT_FALSE(b.take(rate, t0 + 250ms));  // half a token
  EXPECT_TRUE(b.take(rate, t0 + 500ms));   // half a second gives one token back
  EXPECT_FALSE(b.take(rate, t0 + 500ms));
}

TEST(TokenBucket, ItNeverHoldsMoreThanItsBurst) {
  const Rate rate{10, 2};
  const Clock::time_point t0{};
  TokenBucket b(rate, t0);
  const auto later = t0 + 1h;
  EXPECT_DOUBLE_EQ(b.tokens(rate, later), 2.0);
  EXPECT_TRUE(b.take(rate, later));
  EXPECT_TRUE(b.take(rate, later));
  EXPECT_FALSE(b.take(rate, later));
  b.give_back(rate, later);
  b.give_back(rate, later);
  b.give_back(rate, later);  // a third would be above the burst
  EXPECT_DOUBLE_EQ(b.tokens(rate, later), 2.0);
  EXPECT_TRUE(b.full(rate, later));
}

TEST(TokenBucket, AGivenBackTokenCanBeTakenAgain) {
  const Rate rate{1.0 / 60, 1};  // one a minute
  const Clock::time_point t0{};
  TokenBucket b(rate, t0);
  EXPECT_TRUE(b.take(rate, t0));
  EXPECT_FALSE(b.full(rate, t0));
  b.give_back(rate, t0 + 1s);
  EXPECT_TRUE(b.take(rate, t0 + 1s));
  EXPECT_FALSE(b.take(rate, t0 + 2s));
  EXPECT_TRUE(b.take(rate, t0 + 1s + 61s));
}

TEST(TokenBucket, WaitTimeSaysWhenTheNextTokenComes) {
  const Rate rate{4, 1};
  const Clock::time_point t0{};
  TokenBucket b(rate, t0);
  EXPECT_EQ(b.wait_time(rate, t0), Clock::duration::zero());
  ASSERT_TRUE(b.take(rate, t0));
  EXPECT_EQ(b.wait_time(rate, t0), std::chrono::duration_cast<Clock::duration>(250ms));
  EXPECT_EQ(b.wait_time(rate, t0 + 125ms), std::chrono::duration_cast<Clock::duration>(125ms));
  const auto when = t0 + b.wait_time(rate, t0);
  EXPECT_TRUE(b.take(rate, when));
}

TEST(TokenBucket, ARateOfNothingNeverRefills) {
  const Rate rate{0, 1};
  const Clock::time_point t0{};
  TokenBucket b(rate, t0);
  EXPECT_TRUE(b.take(rate, t0));
  EXPECT_FALSE(b.take(rate, t0 + 24h));
  EXPECT_EQ(b.wait_time(rate, t0 + 24h), Clock::duration::max());
}

TEST(TokenBucket, AClockThatStepsBackTakesNothingAway) {
  const Rate rate{1, 2};
  const Clock::time_point t0 = Clock::time_point{} + 10s;
  TokenBucket b(rate, t0);
  ASSERT_TRUE(b.take(rate, t0));
  EXPECT_DOUBLE_EQ(b.tokens(rate, t0 - 5s), 1.0);
  EXPECT_TRUE(b.take(rate, t0 - 5s));
  EXPECT_FALSE(b.take(rate, t0));
  EXPECT_TRUE(b.take(rate, t0 + 1s));
}

}  // namespace
}  // namespace campfire
