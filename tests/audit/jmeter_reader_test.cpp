#include "audit/jmeter_reader.h"

#include <gtest/gtest.h>

#include "test_files.h"

namespace openloop::audit {
namespace {

TEST(JmeterReader, ReadsThreadsLabelsAndSuccess) {
  auto reader = JmeterReader::open(testing::fixture("jmeter.jtl"));
  ASSERT_TRUE(reader) << reader.error().message;
  std::vector<Record> all;
  Record r;
  while (*(*reader)->next(r)) all.push_back(r);
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].start, Nanos(1509841690552LL * 1'000'000));
  EXPECT_EQ(all[0].duration, Nanos(354'000'000));
  EXPECT_EQ(all[0].thread, "Checkout 1-1");
  EXPECT_EQ(all[1].label, "cart, add");
  EXPECT_FALSE(all[2].ok);
  EXPECT_EQ(all[2].thread, "Checkout 1-2");
  EXPECT_EQ((*reader)->bad_lines().count, 1);
  EXPECT_NE((*reader)->bad_lines().first.find("jmeter.jtl:5:"), std::string::npos);
  EXPECT_NE((*reader)->bad_lines().first.find("12ms"), std::string::npos);
  EXPECT_TRUE((*reader)->traits().has_threads);
}

TEST(JmeterReader, AFileWithoutElapsedIsRefused) {
  testing::TempFile f("timeStamp,label\n1,a\n");
  auto reader = JmeterReader::open(f.path());
  ASSERT_FALSE(reader);
  EXPECT_NE(reader.error().message.find("lacks elapsed"), std::string::npos) << reader.error().message;
}

}  // namespace
}  // namespace openloop::audit
