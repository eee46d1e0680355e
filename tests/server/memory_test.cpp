// Giving freed memory back: the keeper does it on a thread of its own, so that the event loop
// that asks never waits for the allocator (38 ms after 15,000 compressors went at once).
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "server/memory.hpp"

namespace campfire::server::testing {
namespace {

using namespace std::chrono_literals;

// A give-back that records where it ran and waits until the test lets it finish.
struct SlowGiveBack {
  std::mutex m;
  std::condition_variable cv;
  bool release = false;
  int started = 0;
  std::thread::id ran_on;

  void operator()() {
    std::unique_lock lock(m);
    ++started;
    ran_on = std::this_thread::get_id();
    cv.notify_all();
    cv.wait(lock, [&] { return release; });
  }
  bool wait_started(int n) {
    std::unique_lock lock(m);
    return cv.wait_for(lock, 10s, [&] { return started >= n; });
  }
  void let_go() {
    {
      std::lock_guard lock(m);
      release = true;
    }
    cv.notify_all();
  }
};

bool wait_done(const MemoryKeeper& keeper, std::uint64_t n) {
  const auto until = std::chrono::steady_clock::now() + 10s;
  while (keeper.done() < n) {
    if (std::chrono::steady_clock::now() > until) return false;
    std::this_thread::sleep_for(1ms);
  }
  return true;
}

TEST(MemoryKeeper, GivesBackOnItsOwnThreadWhileTheAskerGoesOn) {
  SlowGiveBack slow;
  MemoryKeeper keeper([&] { slow(); });
  keeper.soon();  // returns while the give-back is still running
  ASSERT_TRUE(slow.wait_started(1));
  EXPECT_EQ(keeper.done(), 0u);
  EXPECT_NE(slow.ran_on, std::this_thread::get_id());
  slow.let_go();
  ASSERT_TRUE(wait_done(keeper, 1));
}

TEST(MemoryKeeper, AsksDuringAGiveBackMakeOneMore) {
  SlowGiveBack slow;
  MemoryKeeper keeper([&] { slow(); });
  keeper.soon();
  ASSERT_TRUE(slow.wait_started(1));
  for (int i = 0; i < 5; ++i) keeper.soon();
  slow.let_go();
  ASSERT_TRUE(wait_done(keeper, 2));
  std::this_thread::sleep_for(50ms);
  EXPECT_EQ(keeper.done(), 2u);
  EXPECT_EQ(slow.started, 2);
}

TEST(MemoryKeeper, TheAllocatorsGiveBackRunsAndTheKeeperStopsCleanly) {
  MemoryKeeper keeper;  // the real give-back (jemalloc's purge or malloc_trim)
  keeper.soon();
  EXPECT_TRUE(wait_done(keeper, 1));
}

}  // namespace
}  // namespace campfire::server::testing
