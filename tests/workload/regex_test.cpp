// PCRE2 patterns: compiled once with their group count, errors with the column, matches and their groups.
#include "workload/regex.h"

#include <gtest/gtest.h>

using namespace openloop;
using namespace openloop::workload;

TEST(Regex, FindsGroupsAndContinuesFromTheLastMatch) {
  auto r = Regex::compile(R"(id=(\d+))", "here");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->groups(), 1u);
  RegexMatch m(r->groups());
  const std::string_view text = "a id=12 b id=345";
  ASSERT_TRUE(r->find(text, 0, m));
  EXPECT_EQ(m.group(1), "12");
  EXPECT_EQ(m.group(0), "id=12");
  ASSERT_TRUE(r->find(text, m.end(), m));
  EXPECT_EQ(m.group(1), "345");
  EXPECT_FALSE(r->find(text, m.end(), m));
  EXPECT_FALSE(m.group(2));
}

TEST(Regex, AnOptionalGroupThatDidNotTakePartIsAbsent) {
  auto r = Regex::compile("a(b)?c", "here");
  ASSERT_TRUE(r);
  RegexMatch m(r->groups());
  ASSERT_TRUE(r->find("ac", 0, m));
  EXPECT_FALSE(m.group(1));
}

TEST(Regex, ErrorsQuoteThePatternAndTheColumn) {
  auto r = Regex::compile("id=(\\d+", "plan.yaml:4:9: capture.regex");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ExitCode::usage);
  EXPECT_NE(
      r.error().message.find("plan.yaml:4:9: capture.regex: regex \"id=(\\d+\", column 8: missing closing "
                             "parenthesis"),
      std::string::npos)
      << r.error().message;
}
