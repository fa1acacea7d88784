// JUnit XML: the counts and elements of pass/fail/error cases, a run's cases, and the
// document valid against the common JUnit schema (tests/report/junit.xsd, checked with xmllint when present).
#include "report/junit.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include "results/run_results.h"
#include "results/judging/slo.h"

namespace openloop::report {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// Runs xmllint on `xml` (well-formedness, and the schema when `schema` is true); its exit code, or -1 when
// xmllint is not installed.
int xmllint(const std::string& xml, bool schema) {
  if (std::system("command -v xmllint >/dev/null 2>&1") != 0) return -1;
  char path[] = "/tmp/openloop_junit_XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) return -2;
  ::close(fd);
  std::ofstream(path) << xml;
  const std::string cmd = std::string("xmllint --noout ") +
                          (schema ? std::string("--schema '") + OPENLOOP_JUNIT_XSD + "' " : std::string()) +
                          path + " >/dev/null 2>&1";
  const int rc = std::system(cmd.c_str());
  std::remove(path);
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -3;
}

void expect_schema_valid(const std::string& xml) {
  const int rc = xmllint(xml, true);
  if (rc == -1) GTEST_SKIP() << "xmllint (libxml2-utils) not installed";
  EXPECT_EQ(rc, 0) << xml;
}

results::SloResult slo_result(const std::string& text, bool met, const std::string& measured) {
  results::SloResult s;
  s.slo = *results::parse_slo(text);
  s.evaluated = true;
  s.met = met;
  s.measured_text = measured;
  s.threshold_text = "200ms";
  return s;
}

TEST(RenderJunit, CountsPassFailErrorAndSkipped) {
  JunitReport r;
  r.suite = "openloop run";
  r.cases = {{"SLO a", JunitCase::Status::passed, "", ""},
             {"SLO b", JunitCase::Status::failed, "b: measured 1, bound <= 0", "detail b"},
             {"verdict", JunitCase::Status::error, "interrupted", "partial"},
             {"other", JunitCase::Status::skipped, "not judged", ""}};
  r.time_s = 12.5;
  const std::string x = render_junit(r);
  EXPECT_THAT(x, HasSubstr(R"(<testsuite name="openloop run" tests="4" failures="1" errors="1" skipped="1" )"
                           R"(time="12.500">)"));
  EXPECT_THAT(x, HasSubstr(R"(<testcase name="SLO a" classname="openloop run" time="0.000"/>)"));
  EXPECT_THAT(
      x, HasSubstr(R"(<failure message="b: measured 1, bound &lt;= 0" type="failure">detail b</failure>)"));
  EXPECT_THAT(x, HasSubstr(R"(<error message="interrupted" type="error">partial</error>)"));
  EXPECT_THAT(x, HasSubstr(R"(<skipped message="not judged"/>)"));
  expect_schema_valid(x);
}

TEST(RenderJunit, HostileTextStaysWellFormedAndValid) {
  JunitReport r;
  r.suite = "suite \"<&>\"";
  r.timestamp = junit_timestamp(1700000000.0);
  r.properties = {{"target", "http://127.0.0.1:1/?q=\"a\"&b=<c>\xFF"}};
  r.cases = {
      {"SLO x\x01<y>", JunitCase::Status::failed, "msg \"q\" & \xC3(", "- reason & \"quoted\"\n- \xFE\n"}};
  const std::string x = render_junit(r);
  EXPECT_THAT(x, Not(HasSubstr("\xFF")));
  EXPECT_THAT(x, HasSubstr(R"(value="http://127.0.0.1:1/?q=&quot;a&quot;&amp;b=&lt;c&gt;)"));
  EXPECT_THAT(x, HasSubstr(R"(timestamp="2023-11-14T22:13:20")"));
  const int rc = xmllint(x, false);
  if (rc != -1) {
    EXPECT_EQ(rc, 0) << x;
  }
  expect_schema_valid(x);
}

TEST(RenderJunit, SchemaRejectsATestcaseWithoutName) {
  // The schema check can fail: a document missing a required attribute does not validate.
  const std::string bad =
      "<?xml version=\"1.0\"?>\n<testsuites><testsuite name=\"s\" tests=\"1\"><testcase classname=\"c\"/>"
      "</testsuite></testsuites>\n";
  const int rc = xmllint(bad, true);
  if (rc == -1) GTEST_SKIP() << "xmllint (libxml2-utils) not installed";
  EXPECT_NE(rc, 0);
}

TEST(JunitSloCase, MetPassesFailedNamesMeasuredAndBound) {
  const JunitCase met = junit_slo_case(slo_result("p99<=200ms", true, "150ms"));
  EXPECT_EQ(met.name, "SLO p99<=200ms");
  EXPECT_EQ(met.status, JunitCase::Status::passed);
  const JunitCase failed = junit_slo_case(slo_result("p99<=200ms", false, "212ms"));
  EXPECT_EQ(failed.status, JunitCase::Status::failed);
  EXPECT_EQ(failed.message, "p99<=200ms: measured 212ms, bound <= 200ms");
  results::SloResult none = slo_result("checkout:p99<=200ms", false, "no samples");
  none.evaluated = false;
  const JunitCase not_evaluated = junit_slo_case(none);
  EXPECT_EQ(not_evaluated.status, JunitCase::Status::failed);
  EXPECT_EQ(not_evaluated.message, "checkout:p99<=200ms: not evaluated: no samples");
}

TEST(JunitForRun, OneCasePerSloThenTheVerdictListingReasons) {
  results::RunResults r;
  r.info.target = "http://user:secret@127.0.0.1:8080/x?a=1&b=2";
  r.info.duration_s = 10;
  r.measured_s = 10;
  r.slos = {slo_result("p99<=200ms", true, "150ms"), slo_result("p50<=200ms", false, "250ms")};
  r.verdict.valid = false;
  r.verdict.reasons = {"send lateness p99 5 ms > 1 ms", "dropped 3 of 100 \"intended\" & more"};
  const JunitReport j = junit_for_run(r);
  ASSERT_EQ(j.cases.size(), 3u);
  EXPECT_EQ(j.cases[0].status, JunitCase::Status::passed);
  EXPECT_EQ(j.cases[1].status, JunitCase::Status::failed);
  EXPECT_EQ(j.cases[2].name, "run verdict");
  EXPECT_EQ(j.cases[2].status, JunitCase::Status::failed);
  EXPECT_EQ(j.cases[2].message, "INVALID: send lateness p99 5 ms > 1 ms (and 1 more)");
  EXPECT_EQ(j.cases[2].detail, "- send lateness p99 5 ms > 1 ms\n- dropped 3 of 100 \"intended\" & more\n");
  EXPECT_EQ(j.properties.front().second, "http://[redacted]@127.0.0.1:8080/x?a=1&b=2");
  const std::string x = render_junit(j);
  EXPECT_THAT(x, Not(HasSubstr("secret")));
  EXPECT_THAT(x, HasSubstr("dropped 3 of 100 &quot;intended&quot; &amp; more"));
  expect_schema_valid(x);
}

TEST(JunitForRun, ValidRunPassesItsVerdictAndInterruptedIsAnError) {
  results::RunResults r;
  r.info.target = "http://127.0.0.1:8080/";
  r.info.duration_s = 10;
  r.measured_s = 4;
  EXPECT_EQ(junit_for_run(r).cases.back().status, JunitCase::Status::passed);
  r.interrupted = true;
  const JunitCase verdict = junit_for_run(r).cases.back();
  EXPECT_EQ(verdict.status, JunitCase::Status::error);
  EXPECT_THAT(verdict.message, HasSubstr("interrupted after 4.0 s of 10 s"));
}

}  // namespace
}  // namespace openloop::report
