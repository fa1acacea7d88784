#include "net/descriptors.h"

#include <gtest/gtest.h>

#include <sys/resource.h>

using namespace openloop::net;

TEST(Descriptors, TheTableIsGrownOnceToTheCountAsked) {
  rlimit rl{};
  ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &rl), 0);
  if (rl.rlim_cur < 4096) GTEST_SKIP() << "open-file limit " << rl.rlim_cur << " is too low for this test";
  const std::uint64_t before = descriptor_table_size();
  ASSERT_GT(before, 0U) << "FDSize missing from /proc/self/status";
  const std::uint64_t want = std::max<std::uint64_t>(4096, before * 2);
  if (want > rl.rlim_cur) GTEST_SKIP() << "the table is already near the open-file limit";
  reserve_descriptor_table(want);
  EXPECT_GE(descriptor_table_size(), want);
  // Asking for less than there is changes nothing.
  const std::uint64_t after = descriptor_table_size();
  reserve_descriptor_table(64);
  EXPECT_EQ(descriptor_table_size(), after);
}

TEST(Descriptors, CappedByTheOpenFileLimit) {
  rlimit rl{};
  ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &rl), 0);
  reserve_descriptor_table(rl.rlim_cur * 4);  // must not fail or go past the limit
  EXPECT_LE(descriptor_table_size(), std::max<std::uint64_t>(rl.rlim_cur, 64) * 2);
}
