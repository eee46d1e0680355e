// Handing freed memory back to the system. The allocator keeps pages it has freed for a while,
// to reuse them; after a burst of frees that will not be followed by new allocations soon (the
// compressors of connections that fell idle), the server asks it to give them back, so that an
// idle connection costs what it holds and no more.
#pragma once

namespace campfire::server {

// Returns the allocator's unused pages to the system: jemalloc's dirty pages of every arena
// when the server runs on jemalloc, glibc's free heap tops otherwise. Takes a few milliseconds
// at most; called from the server's sweep, never on a request's path.
void give_back_free_memory();

}  // namespace campfire::server
