#include "audit/gatling_reader.h"

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

bool has_note(const RecordReader& reader, const std::string& text) {
  for (const auto& n : reader.notes()) {
    if (n.find(text) != std::string::npos) return true;
  }
  return false;
}

TEST(GatlingReader, Reads34To312LayoutWithoutUserIds) {
  auto reader = GatlingReader::open(testing::fixture("gatling_3_9.log"));
  ASSERT_TRUE(reader) << reader.error().message;
  EXPECT_FALSE((*reader)->traits().has_threads);
  EXPECT_FALSE((*reader)->traits().in_start_order);
  const auto all = read_all(**reader);
  ASSERT_EQ(all.size(), 4u);
  EXPECT_EQ(all[0].start, Nanos(1'700'000'000'001'000'000LL));
  EXPECT_EQ(all[0].duration, std::chrono::milliseconds(40));
  EXPECT_EQ(all[0].label, "home");
  EXPECT_TRUE(all[0].thread.empty());
  EXPECT_EQ(all[1].label, "Checkout/cart");
  EXPECT_FALSE(all[2].ok);
  EXPECT_EQ(all[3].label, "late");
  // Line 7 is cut after its start; line 8's start is not a number.
  const BadLines& bad = (*reader)->bad_lines();
  EXPECT_EQ(bad.count, 2);
  EXPECT_NE(bad.first.find("gatling_3_9.log:7:"), std::string::npos) << bad.first;
  EXPECT_NE(bad.first.find("4 of the 7"), std::string::npos) << bad.first;
  EXPECT_NE(bad.first.find("missing: end, status, message"), std::string::npos) << bad.first;
  EXPECT_TRUE(has_note(**reader, "RUN record says 3.9.5"));
  EXPECT_TRUE(has_note(**reader, "no user id"));
  EXPECT_TRUE(has_note(**reader, "2 virtual users started"));
  EXPECT_TRUE(has_note(**reader, "at most 2 active at once"));
}

TEST(GatlingReader, Reads30To33LayoutWithUserIdsAsSenders) {
  auto reader = GatlingReader::open(testing::fixture("gatling_3_2.log"));
  ASSERT_TRUE(reader) << reader.error().message;
  EXPECT_TRUE((*reader)->traits().has_threads);
  const auto all = read_all(**reader);
  ASSERT_EQ(all.size(), 4u);
  EXPECT_EQ(all[0].thread, "user 1");
  EXPECT_EQ(all[1].thread, "user 2");
  EXPECT_EQ(all[2].thread, "user 1");
  EXPECT_EQ(all[2].label, "Checkout/cart");
  EXPECT_FALSE(all[3].ok);
  EXPECT_EQ((*reader)->bad_lines().count, 1);
  EXPECT_NE((*reader)->bad_lines().first.find("gatling_3_2.log:6: user id 'x'"), std::string::npos)
      << (*reader)->bad_lines().first;
}

TEST(GatlingReader, Reads23LayoutWithScenarioAndExtraInfo) {
  auto reader = GatlingReader::open(testing::fixture("gatling_2_3.log"));
  ASSERT_TRUE(reader) << reader.error().message;
  const auto all = read_all(**reader);
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[1].thread, "Buyers user 7");
  EXPECT_EQ(all[1].duration, std::chrono::milliseconds(60));
  EXPECT_EQ((*reader)->bad_lines().count, 0);
}

TEST(GatlingReader, LayoutFollowsTheFieldCount) {
  EXPECT_EQ(gatling_layout_of(7), GatlingLayout::v34);
  EXPECT_EQ(gatling_layout_of(8), GatlingLayout::v30);
  EXPECT_EQ(gatling_layout_of(9), GatlingLayout::v2);
  EXPECT_EQ(gatling_layout_of(12), GatlingLayout::v2);
  EXPECT_FALSE(gatling_layout_of(6));
}

TEST(GatlingReader, ARecordOfAnotherWidthIsABadLineAndTheRestIsRead) {
  testing::TempFile f(
      "REQUEST\t\ta\t1000\t1010\tOK\t \n"
      "REQUEST\t3\t\ta\t1000\t1010\tOK\t \n"
      "REQUEST\t\ta\t1010\t1030\tOK\t \n");
  auto reader = GatlingReader::open(f.path());
  ASSERT_TRUE(reader) << reader.error().message;
  EXPECT_EQ(read_all(**reader).size(), 2u);
  EXPECT_EQ((*reader)->bad_lines().count, 1);
  EXPECT_NE((*reader)->bad_lines().first.find(":2: a REQUEST record with 8 tab-separated fields"),
            std::string::npos)
      << (*reader)->bad_lines().first;
  EXPECT_TRUE(has_note(**reader, "no RUN record"));
}

TEST(GatlingReader, BinaryLogIsRefusedByName) {
  testing::TempFile f(
      std::string("\0\0\0\x05"
                  "3.13.1",
                  10));
  auto reader = GatlingReader::open(f.path());
  ASSERT_FALSE(reader);
  EXPECT_NE(reader.error().message.find("binary simulation.log (Gatling 3.13"), std::string::npos)
      << reader.error().message;
}

}  // namespace
}  // namespace openloop::audit
