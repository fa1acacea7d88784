#include "audit/ab_reader.h"

#include <gtest/gtest.h>

#include "test_files.h"

namespace openloop::audit {
namespace {

TEST(AbReader, ReadsSecondsAndTotalTimeAndCountsTheBadLine) {
  auto reader = AbReader::open(testing::fixture("ab.tsv"));
  ASSERT_TRUE(reader) << reader.error().message;
  std::vector<Record> all;
  Record r;
  while (*(*reader)->next(r)) all.push_back(r);
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].start, Nanos(1796387597LL * 1'000'000'000LL));
  EXPECT_EQ(all[1].duration, Nanos(3'000'000));
  EXPECT_EQ(all[2].duration, Nanos(1'501'000'000));
  EXPECT_EQ((*reader)->bad_lines().count, 1);
  EXPECT_NE((*reader)->bad_lines().first.find("ab.tsv:4:"), std::string::npos)
      << (*reader)->bad_lines().first;
  EXPECT_EQ((*reader)->traits().start_resolution, std::chrono::seconds(1));
}

}  // namespace
}  // namespace openloop::audit
