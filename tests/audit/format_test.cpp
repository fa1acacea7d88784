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
  EXPECT_EQ(*detect_format(fixture("jmeter.xml")), Format::jmeter);
  EXPECT_EQ(*detect_format(fixture("k6.csv")), Format::k6);
  EXPECT_EQ(*detect_format(fixture("k6_seconds.csv")), Format::k6);
  EXPECT_EQ(*detect_format(fixture("gatling_3_9.log")), Format::gatling);
  EXPECT_EQ(*detect_format(fixture("gatling_3_2.log")), Format::gatling);
  EXPECT_EQ(*detect_format(fixture("gatling_2_3.log")), Format::gatling);
}

TEST(OpenReader, EachEncodingOfAFormatGetsItsReader) {
  // jmeter: XML or CSV; k6: JSON lines or CSV; told by the first byte, with --format or detected.
  for (Format f : {Format::auto_detect, Format::jmeter}) {
    auto xml = open_reader(fixture("jmeter.xml"), f);
    ASSERT_TRUE(xml) << xml.error().message;
    Record r;
    ASSERT_TRUE(*(*xml)->next(r));
    EXPECT_EQ(r.thread, "Checkout 1-1");
  }
  for (Format f : {Format::auto_detect, Format::k6}) {
    auto csv = open_reader(fixture("k6.csv"), f);
    ASSERT_TRUE(csv) << csv.error().message;
    Record r;
    ASSERT_TRUE(*(*csv)->next(r));
    EXPECT_EQ(r.thread, "default vu 1");
  }
}

TEST(DetectFormat, XmlOnOneLineAndAByteOrderMarkAreRecognised) {
  testing::TempFile f(
      "\xEF\xBB\xBF<?xml version=\"1.0\"?><testResults version=\"1.2\"><sample t=\"1\" ts=\"2\"/>");
  EXPECT_EQ(*detect_format(f.path()), Format::jmeter);
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
  EXPECT_EQ(*parse_format("gatling"), Format::gatling);
  auto r = parse_format("gatlin");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("hey, ab, jmeter, k6, gatling, vegeta, locust"), std::string::npos);
}

TEST(OpenReader, FormatOverrideWinsOverDetection) {
  // A hey file read as ab lacks ab's columns: the override is obeyed, and the error says so.
  auto r = open_reader(fixture("hey.csv"), Format::ab);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("ab -g"), std::string::npos) << r.error().message;
}

}  // namespace
}  // namespace openloop::audit
