#include "audit/fields.h"

#include <gtest/gtest.h>

namespace openloop::audit {
namespace {

TEST(SplitFields, QuotedFieldsKeepSeparatorsAndDoubledQuotes) {
  std::vector<std::string> f;
  ASSERT_TRUE(split_fields(R"(1,"cart, add","say ""hi""",)", ',', f));
  ASSERT_EQ(f.size(), 4u);
  EXPECT_EQ(f[1], "cart, add");
  EXPECT_EQ(f[2], R"(say "hi")");
  EXPECT_EQ(f[3], "");
}

TEST(SplitFields, UnterminatedQuoteIsRefused) {
  std::vector<std::string> f;
  EXPECT_FALSE(split_fields(R"(1,"open)", ',', f));
}

TEST(ParseNumber, WholeFieldOnly) {
  EXPECT_EQ(parse_number("0.0038"), 0.0038);
  EXPECT_EQ(parse_number("1e-3"), 1e-3);
  EXPECT_FALSE(parse_number("12ms"));
  EXPECT_FALSE(parse_number(""));
  EXPECT_FALSE(parse_number("nan"));
  EXPECT_EQ(parse_integer("1509841690552"), 1509841690552LL);
  EXPECT_FALSE(parse_integer("15.5"));
}

TEST(ParseRfc3339, OffsetsFractionsAndRefusals) {
  EXPECT_EQ(parse_rfc3339("1970-01-01T00:00:00Z"), 0);
  EXPECT_EQ(parse_rfc3339("2020-01-01T00:00:00.01Z"), 1577836800010000000LL);
  EXPECT_EQ(parse_rfc3339("2017-05-09T14:34:45.239531499+02:00"), 1494333285239531499LL);
  EXPECT_EQ(parse_rfc3339("2017-05-09T10:34:45-02:00"), 1494333285000000000LL);
  EXPECT_FALSE(parse_rfc3339("2017-05-09T14:34:45"));  // no zone
  EXPECT_FALSE(parse_rfc3339("2017-13-09T14:34:45Z"));
  EXPECT_FALSE(parse_rfc3339("yesterday"));
}

TEST(Columns, MissingColumnsAreNamedWithTheHeaderFound) {
  const Columns c({"response-time", "status-code"});
  auto r = c.require({"response-time", "offset"}, "x.csv", "hey -o csv");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("x.csv:1"), std::string::npos);
  EXPECT_NE(r.error().message.find("lacks offset"), std::string::npos);
  EXPECT_NE(r.error().message.find("response-time,status-code"), std::string::npos);
}

}  // namespace
}  // namespace openloop::audit

namespace openloop::audit {
namespace {

TEST(ScaledTime, RefusesStampsThatWouldOverflowNanoseconds) {
  Nanos t{0};
  EXPECT_TRUE(scaled_time(1'700'000'000'000LL, 1'000'000, t));
  EXPECT_EQ(t, Nanos(1'700'000'000'000'000'000LL));
  // A millisecond stamp the fuzzer found (fuzz/corpus/audit_jmeter_xml/regress_stamp_overflow): year 2271.
  EXPECT_FALSE(scaled_time(9'509'841'691'040LL, 1'000'000, t));
  EXPECT_FALSE(scaled_time(-1, 1, t));
  EXPECT_TRUE(duration_of(0.5, t));
  EXPECT_EQ(t, std::chrono::milliseconds(500));
  EXPECT_FALSE(duration_of(1e300, t));
  EXPECT_FALSE(duration_of(-0.001, t));
  EXPECT_FALSE(parse_rfc3339("9999-01-01T00:00:00Z"));
}

}  // namespace
}  // namespace openloop::audit
