#include "core/units.h"

#include <gtest/gtest.h>

using namespace openloop;
using namespace std::chrono_literals;

TEST(ParseRate, AcceptsPerSecondAndPerMinute) {
  EXPECT_DOUBLE_EQ(*parse_rate("500", "--rate"), 500.0);
  EXPECT_DOUBLE_EQ(*parse_rate("500/s", "--rate"), 500.0);
  EXPECT_DOUBLE_EQ(*parse_rate("30000/m", "--rate"), 500.0);
  EXPECT_DOUBLE_EQ(*parse_rate("2.5/s", "--rate"), 2.5);
  EXPECT_DOUBLE_EQ(*parse_rate("3600/h", "--rate"), 1.0);
}

TEST(ParseRate, RejectsGarbageWithMessageNamingFlagAndValue) {
  auto r = parse_rate("abc", "--rate");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ExitCode::usage);
  EXPECT_EQ(r.error().message,
            "--rate: \"abc\" is not a rate; use e.g. 500/s, 30000/m (or 500, meaning per second)");
  EXPECT_FALSE(parse_rate("-5/s", "--rate"));
  EXPECT_FALSE(parse_rate("5/x", "--rate"));
  EXPECT_FALSE(parse_rate("", "--rate"));
}

TEST(ParseDuration, AcceptsUnitsAndCompounds) {
  EXPECT_EQ(*parse_duration("250ms", "--timeout"), 250ms);
  EXPECT_EQ(*parse_duration("30s", "--timeout"), 30s);
  EXPECT_EQ(*parse_duration("2m", "--timeout"), 2min);
  EXPECT_EQ(*parse_duration("1h30m", "--timeout"), 90min);
  EXPECT_EQ(*parse_duration("1.5s", "--timeout"), 1500ms);
  EXPECT_EQ(*parse_duration("500us", "--timeout"), 500us);
  EXPECT_EQ(*parse_duration("100ns", "--timeout"), 100ns);
  EXPECT_EQ(*parse_duration("0", "--timeout"), 0ns);
}

TEST(ParseDuration, RejectsBareNumbersAndUnknownUnits) {
  auto r = parse_duration("10", "--duration");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("--duration: \"10\" is not a duration"), std::string::npos);
  EXPECT_FALSE(parse_duration("10x", "--duration"));
  EXPECT_FALSE(parse_duration("-1s", "--duration"));
  EXPECT_FALSE(parse_duration("s", "--duration"));
}

TEST(FormatDuration, PicksReadableUnit) {
  EXPECT_EQ(format_duration(0ns), "0");
  EXPECT_EQ(format_duration(850ns), "850ns");
  EXPECT_EQ(format_duration(4560us), "4.56ms");
  EXPECT_EQ(format_duration(150s), "2m30s");
}
