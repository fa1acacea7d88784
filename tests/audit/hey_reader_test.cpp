#include "audit/hey_reader.h"

#include <gtest/gtest.h>

#include "test_files.h"

namespace openloop::audit {
namespace {

using testing::fixture;
using testing::TempFile;

TEST(HeyReader, ReadsOffsetsAsSendsAndSkipsTheShortLine) {
  auto reader = HeyReader::open(fixture("hey.csv"));
  ASSERT_TRUE(reader) << reader.error().message;
  Record r;
  std::vector<Record> all;
  while (true) {
    auto more = (*reader)->next(r);
    ASSERT_TRUE(more);
    if (!*more) break;
    all.push_back(r);
  }
  ASSERT_EQ(all.size(), 4u);
  EXPECT_EQ(all[0].start, Nanos(9'600'000));
  EXPECT_EQ(all[0].duration, Nanos(3'800'000));
  EXPECT_TRUE(all[0].thread.empty());
  EXPECT_FALSE(all[2].ok);  // 503
  EXPECT_EQ(all[3].duration, Nanos(501'200'000));
  EXPECT_EQ((*reader)->bad_lines().count, 1);
  EXPECT_NE((*reader)->bad_lines().first.find("hey.csv:5:"), std::string::npos)
      << (*reader)->bad_lines().first;
  EXPECT_EQ((*reader)->traits().tool_model, ToolModel::closed);
}

TEST(HeyReader, HeaderWithoutOffsetIsRefusedNamingIt) {
  TempFile f("response-time,status-code\n0.1,200\n");
  auto reader = HeyReader::open(f.path());
  ASSERT_FALSE(reader);
  EXPECT_NE(reader.error().message.find("offset"), std::string::npos) << reader.error().message;
  EXPECT_EQ(reader.error().code, ExitCode::usage);
}

TEST(HeyReader, MissingFileIsAUsageError) {
  auto reader = HeyReader::open("/nonexistent/hey.csv");
  ASSERT_FALSE(reader);
  EXPECT_NE(reader.error().message.find("/nonexistent/hey.csv"), std::string::npos);
}

}  // namespace
}  // namespace openloop::audit
