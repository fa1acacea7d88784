#include "audit/vegeta_reader.h"

#include <gtest/gtest.h>

#include "test_files.h"

namespace openloop::audit {
namespace {

std::vector<Record> read_all(RecordReader& reader) {
  std::vector<Record> all;
  Record r;
  while (*reader.next(r)) all.push_back(r);
  return all;
}

TEST(VegetaReader, ReadsJsonResults) {
  auto reader = VegetaReader::open(testing::fixture("vegeta.json"));
  ASSERT_TRUE(reader) << reader.error().message;
  const auto all = read_all(**reader);
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].start, Nanos(1577836800000000000LL));
  EXPECT_EQ(all[0].duration, Nanos(1'500'000));
  EXPECT_TRUE(all[0].ok);
  EXPECT_FALSE(all[1].ok);  // an error and code 0
  EXPECT_EQ(all[1].duration, std::chrono::seconds(30));
  EXPECT_EQ(all[0].seq, 0);
  EXPECT_EQ(all[1].seq, 1);
  EXPECT_EQ((*reader)->bad_lines().count, 1);  // a negative latency
  EXPECT_NE((*reader)->bad_lines().first.find("vegeta.json:3:"), std::string::npos);
  EXPECT_EQ((*reader)->traits().tool_model, ToolModel::open);
}

TEST(VegetaReader, ReadsCsvResults) {
  auto reader = VegetaReader::open(testing::fixture("vegeta.csv"));
  ASSERT_TRUE(reader) << reader.error().message;
  const auto all = read_all(**reader);
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[1].start, Nanos(1577836800010000000LL));
  EXPECT_EQ(all[1].duration, Nanos(2'500'000));
  EXPECT_FALSE(all[1].ok);
  EXPECT_EQ(all[0].label, "http://127.0.0.1:8080/");
  EXPECT_EQ(all[1].seq, 1);
  EXPECT_EQ((*reader)->bad_lines().count, 1);
  EXPECT_NE((*reader)->bad_lines().first.find("'abc'"), std::string::npos) << (*reader)->bad_lines().first;
}

}  // namespace
}  // namespace openloop::audit
