#include "server/memory.hpp"

#include <malloc.h>

#include <cstddef>

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

}  // namespace campfire::server
