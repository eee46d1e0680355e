#include "server/descriptors.hpp"

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>

namespace campfire::server {

Descriptors prepare_descriptors(long most) {
  Descriptors d;
  rlimit lim{};
  if (::getrlimit(RLIMIT_NOFILE, &lim) != 0) return d;
  if (lim.rlim_cur < lim.rlim_max) {
    rlimit raised = lim;
    raised.rlim_cur = lim.rlim_max;
    if (::setrlimit(RLIMIT_NOFILE, &raised) == 0) lim = raised;
  }
  d.limit = lim.rlim_cur == RLIM_INFINITY ? most : static_cast<long>(lim.rlim_cur);
  // The kernel sizes the table to hold the highest descriptor in use: placing one at the top and
  // closing it leaves the table that size for the process's life.
  const long top = std::min(d.limit, most) - 1;
  if (top < 3) return d;
  const int probe = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (probe < 0) return d;
  // F_DUPFD takes the lowest free descriptor from `top` up, and never closes one in use.
  const int placed = ::fcntl(probe, F_DUPFD_CLOEXEC, static_cast<int>(top));
  if (placed >= 0) {
    d.reserved = placed + 1;
    ::close(placed);
  }
  ::close(probe);
  return d;
}

}  // namespace campfire::server
