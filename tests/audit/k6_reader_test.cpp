#include "audit/k6_reader.h"

#include <gtest/gtest.h>

#include "test_files.h"

namespace openloop::audit {
namespace {

TEST(K6Reader, ReadsDurationPointsAsSendsBeforeTheirTime) {
  auto reader = K6Reader::open(testing::fixture("k6.json"));
  ASSERT_TRUE(reader) << reader.error().message;
  std::vector<Record> all;
  Record r;
  while (*(*reader)->next(r)) all.push_back(r);
  ASSERT_EQ(all.size(), 2u);
  // 2017-05-09T12:34:45.239531499Z minus 459.865729 ms.
  EXPECT_EQ(all[0].start.count() + all[0].duration.count(), 1494333285239531499LL);
  EXPECT_EQ(all[0].duration, Nanos(459'865'729));
  EXPECT_EQ(all[0].thread, "default vu 1");
  EXPECT_TRUE(all[0].ok);
  EXPECT_FALSE(all[1].ok);
  EXPECT_EQ((*reader)->bad_lines().count, 1);
  EXPECT_NE((*reader)->bad_lines().first.find("k6.json:5:"), std::string::npos)
      << (*reader)->bad_lines().first;
  ASSERT_EQ((*reader)->notes().size(), 1u);
  EXPECT_NE((*reader)->notes()[0].find("3 dropped iterations"), std::string::npos);
}

TEST(K6Reader, ATypeOrMetricThatIsNotAStringIsSkippedNotThrown) {
  // Found by the audit_file fuzzer: json::value("type", "") throws when "type" is an object.
  testing::TempFile f(
      "{\"type\":{\"a\":1},\"metric\":\"http_req_duration\",\"data\":{\"time\":\"2017-05-09T12:34:45Z\","
      "\"value\":1}}\n"
      "{\"type\":\"Point\",\"metric\":[\"http_req_duration\"],\"data\":{\"time\":\"2017-05-09T12:34:45Z\","
      "\"value\":1}}\n");
  auto reader = K6Reader::open(f.path());
  ASSERT_TRUE(reader) << reader.error().message;
  Record r;
  auto more = (*reader)->next(r);
  ASSERT_TRUE(more);
  EXPECT_FALSE(*more);
}

}  // namespace
}  // namespace openloop::audit
