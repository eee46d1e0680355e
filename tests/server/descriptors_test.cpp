#include "server/descriptors.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <string>

namespace campfire::server {
namespace {

// The size of this process's descriptor table, as the kernel reports it.
long table_size() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("FDSize:", 0) == 0) return std::stol(line.substr(7));
  }
  return -1;
}

long soft_limit() {
  rlimit lim{};
  EXPECT_EQ(::getrlimit(RLIMIT_NOFILE, &lim), 0);
  return static_cast<long>(lim.rlim_cur);
}

TEST(DescriptorsTest, RaisesTheSoftLimitToTheHardOne) {
  rlimit lim{};
  ASSERT_EQ(::getrlimit(RLIMIT_NOFILE, &lim), 0);
  const Descriptors d = prepare_descriptors(256);
  ASSERT_EQ(::getrlimit(RLIMIT_NOFILE, &lim), 0);
  EXPECT_EQ(lim.rlim_cur, lim.rlim_max);
  EXPECT_EQ(d.limit, static_cast<long>(lim.rlim_cur));
}

TEST(DescriptorsTest, GrowsTheTableAtOnceAndLeavesNothingOpen) {
  const int before = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  ASSERT_GE(before, 0);
  const long want = std::min(soft_limit(), 4096L);
  const Descriptors d = prepare_descriptors(4096);
  EXPECT_EQ(d.reserved, want);
  EXPECT_GE(table_size(), want);
  // The descriptor used to grow it is closed again, and the next one opened is the lowest free.
  EXPECT_EQ(::fcntl(static_cast<int>(want - 1), F_GETFD), -1);
  const int after = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  EXPECT_LT(after, 64);
  // What was open stays open.
  EXPECT_GE(::fcntl(before, F_GETFD), 0);
  ::close(after);
  ::close(before);
}

TEST(DescriptorsTest, NeverClosesADescriptorAlreadyAtTheTop) {
  const int probe = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  ASSERT_GE(probe, 0);
  const int top = ::fcntl(probe, F_DUPFD_CLOEXEC, 999);
  ASSERT_EQ(top, 999);
  const Descriptors d = prepare_descriptors(1000);
  EXPECT_GE(::fcntl(top, F_GETFD), 0) << "the descriptor at the top was closed";
  EXPECT_GT(d.reserved, 1000);
  ::close(top);
  ::close(probe);
}

}  // namespace
}  // namespace campfire::server
