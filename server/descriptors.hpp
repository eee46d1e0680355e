// Open files. Every connection holds a descriptor, so a server meant for thousands of them raises
// its own soft limit to what the system allows, and grows the process's descriptor table once, at
// start. Grown later, one doubling at a time as connections arrive, each growth of a table shared
// by several threads waits for the kernel's read-copy-update grace period: 10-40 ms during which
// the thread accepting connections stands still.
#pragma once

namespace campfire::server {

struct Descriptors {
  long limit = 0;     // the soft limit on open files after raising it
  long reserved = 0;  // descriptors the table was grown to hold at start (0: not grown)
};

// Raises the soft limit on open files to the hard limit and grows the descriptor table to hold
// min(that limit, `most`) descriptors. Never fails: where the system refuses, what it allows
// stays, and the result says what that is.
Descriptors prepare_descriptors(long most = 65536);

}  // namespace campfire::server
