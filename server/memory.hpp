// Handing freed memory back to the system. The allocator keeps pages it has freed for a while,
// to reuse them; after a burst of frees that will not be followed by new allocations soon (the
// compressors of connections that fell idle), the server asks it to give them back, so that an
// idle connection costs what it holds and no more.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>

namespace campfire::server {

// Returns the allocator's unused pages to the system: jemalloc's dirty pages of every arena
// when the server runs on jemalloc, glibc's free heap tops otherwise. It can take tens of
// milliseconds (38 ms after 15,000 connections' compressors went at once), so the server does
// not call it on an event loop's thread but through a MemoryKeeper.
void give_back_free_memory();

// A thread that gives freed memory back when asked, so that no event loop waits for it: called
// on the loop, the give-back above held every room up for as long as it took.
class MemoryKeeper {
 public:
  // `give_back`: what to run (the allocator's give-back; tests pass their own).
  explicit MemoryKeeper(std::function<void()> give_back = give_back_free_memory);
  ~MemoryKeeper();
  MemoryKeeper(const MemoryKeeper&) = delete;
  MemoryKeeper& operator=(const MemoryKeeper&) = delete;

  // Asks for a give-back and returns at once; asks made while one is due or running make one
  // more at most.
  void soon();
  // How many give-backs have finished.
  std::uint64_t done() const { return done_.load(); }

 private:
  void run();

  std::function<void()> give_back_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool due_ = false;
  bool stopping_ = false;
  std::atomic<std::uint64_t> done_{0};
  std::thread thread_;
};

}  // namespace campfire::server
