#include "audit/k6_csv_reader.h"

#include <gtest/gtest.h>

#include "test_files.h"

namespace openloop::audit {
namespace {

TEST(K6CsvReader, ReadsDurationRowsWithTheirVuFromMetadata) {
  auto reader = K6CsvReader::open(testing::fixture("k6.csv"));
  ASSERT_TRUE(reader) << reader.error().message;
  EXPECT_TRUE((*reader)->traits().has_threads);
  EXPECT_EQ((*reader)->traits().start_resolution, std::chrono::milliseconds(1));
  std::vector<Record> all;
  Record r;
  while (*(*reader)->next(r)) all.push_back(r);
  ASSERT_EQ(all.size(), 2u);
  // Stamped at the end (unix_milli): the send is 221.899 ms before it.
  EXPECT_EQ(all[0].start + all[0].duration, Nanos(1'595'325'560'221'000'000LL));
  EXPECT_EQ(all[0].duration, Nanos(221'899'000));
  EXPECT_EQ(all[0].thread, "default vu 1");
  EXPECT_TRUE(all[0].ok);
  EXPECT_EQ(all[1].thread, "default vu 2");
  EXPECT_EQ(all[1].label, "http://test.k6.io/?a=1,2");
  EXPECT_FALSE(all[1].ok);
  const BadLines& bad = (*reader)->bad_lines();
  EXPECT_EQ(bad.count, 2);
  EXPECT_NE(bad.first.find("k6.csv:5: 3 fields; expected 19"), std::string::npos) << bad.first;
  const auto notes = (*reader)->notes();
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("3 dropped iterations"), std::string::npos);
}

TEST(K6CsvReader, WholeSecondStampsArePooledAndSaidSo) {
  auto reader = K6CsvReader::open(testing::fixture("k6_seconds.csv"));
  ASSERT_TRUE(reader) << reader.error().message;
  EXPECT_FALSE((*reader)->traits().has_threads);
  EXPECT_EQ((*reader)->traits().start_resolution, std::chrono::seconds(1));
  Record r;
  int n = 0;
  while (*(*reader)->next(r)) {
    ++n;
    EXPECT_TRUE(r.thread.empty());
  }
  EXPECT_EQ(n, 2);
  ASSERT_FALSE((*reader)->notes().empty());
  EXPECT_NE((*reader)->notes()[0].find("to the second"), std::string::npos);
}

TEST(K6CsvReader, HeaderWithoutTheNeededColumnsIsRefusedNamingThem) {
  testing::TempFile f("metric_name,time,value\nhttp_req_duration,1,2\n");
  auto reader = K6CsvReader::open(f.path());
  ASSERT_FALSE(reader);
  EXPECT_NE(reader.error().message.find("timestamp"), std::string::npos) << reader.error().message;
  EXPECT_NE(reader.error().message.find("metric_value"), std::string::npos) << reader.error().message;
}

TEST(ParseK6Stamp, TellsTheTimeFormatsApart) {
  EXPECT_EQ(parse_k6_stamp("1595325560")->ns, 1'595'325'560'000'000'000LL);
  EXPECT_EQ(parse_k6_stamp("1595325560")->resolution, std::chrono::seconds(1));
  EXPECT_EQ(parse_k6_stamp("1595325560221")->resolution, std::chrono::milliseconds(1));
  EXPECT_EQ(parse_k6_stamp("1595325560221123")->ns, 1'595'325'560'221'123'000LL);
  EXPECT_EQ(parse_k6_stamp("1595325560221123456")->resolution, Nanos(1));
  EXPECT_EQ(parse_k6_stamp("2020-07-21T09:59:20Z")->resolution, std::chrono::seconds(1));
  EXPECT_EQ(parse_k6_stamp("2020-07-21T09:59:20.5Z")->ns, 1'595'325'560'500'000'000LL);
  EXPECT_FALSE(parse_k6_stamp("yesterday"));
  EXPECT_FALSE(parse_k6_stamp(""));
}

}  // namespace
}  // namespace openloop::audit
