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
