#include "audit/format.h"

#include <gtest/gtest.h>

#include "test_files.h"

namespace openloop::audit {
namespace {

using testing::fixture;

TEST(DetectFormat, RecognisesEachToolFromItsFirstLine) {
  EXPECT_EQ(*detect_format(fixture("hey.csv")), Format::hey);
  EXPECT_EQ(*detect_format(fixture("ab.tsv")), Format::ab);
  EXPECT_EQ(*detect_format(fixture("jmeter.jtl")), Format::jmeter);
  EXPECT_EQ(*detect_format(fixture("k6.json")), Format::k6);
  EXPECT_EQ(*detect_format(fixture("vegeta.json")), Format::vegeta);
  EXPECT_EQ(*detect_format(fixture("vegeta.csv")), Format::vegeta);
  EXPECT_EQ(*detect_format(fixture("locust_stats_history.csv")), Format::locust);
}

TEST(DetectFormat, UnknownFirstLineNamesFileLineAndFormats) {
  testing::TempFile f("hello,world\n1,2\n");
  auto r = detect_format(f.path());
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find(f.path() + ":1:"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("--format"), std::string::npos);
}

TEST(ParseFormat, NamesTheAcceptedFormats) {
  EXPECT_EQ(*parse_format("jmeter"), Format::jmeter);
  auto r = parse_format("gatlin");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("hey, ab, jmeter, k6, vegeta, locust"), std::string::npos);
}

TEST(OpenReader, FormatOverrideWinsOverDetection) {
  // A hey file read as ab lacks ab's columns: the override is obeyed, and the error says so.
  auto r = open_reader(fixture("hey.csv"), Format::ab);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("ab -g"), std::string::npos) << r.error().message;
}

}  // namespace
}  // namespace openloop::audit
