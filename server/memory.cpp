#include "server/memory.hpp"

#include <malloc.h>

#include <cstddef>
#include <utility>

// jemalloc's control interface, present only when campfire-server links jemalloc (see
// server/CMakeLists.txt); a weak reference is null otherwise.
extern "C" int mallctl(const char* name, void* oldp, std::size_t* oldlenp, void* newp,
                       std::size_t newlen) __attribute__((weak));

namespace campfire::server {

void give_back_free_memory() {
  if (mallctl != nullptr) {
    // 4096 is MALLCTL_ARENAS_ALL: every arena's unused dirty pages go back at once.
    mallctl("arena.4096.purge", nullptr, nullptr, nullptr, 0);
    return;
  }
  malloc_trim(0);
}

MemoryKeeper::MemoryKeeper(std::function<void()> give_back)
    : give_back_(std::move(give_back)), thread_([this] { run(); }) {}

MemoryKeeper::~MemoryKeeper() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

void MemoryKeeper::soon() {
  {
    std::lock_guard lock(mutex_);
    due_ = true;
  }
  wake_.notify_one();
}

void MemoryKeeper::run() {
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return due_ || stopping_; });
      if (stopping_) return;
      due_ = false;
    }
    give_back_();
    done_.fetch_add(1);
  }
}

}  // namespace campfire::server
