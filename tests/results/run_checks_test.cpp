// The self-checks' findings: the verdict's reason, the summary line, and the results file's block written and
// read back with bad fields named.
#include "results/run_checks.h"

#include <gtest/gtest.h>

#include "results/verdict.h"

using namespace openloop::results;

namespace {
RunChecks failed_arrivals(bool accepted) {
  RunChecks c;
  c.arrivals.tested = true;
  c.arrivals.process = "poisson";
  c.arrivals.level = "1 %";
  c.arrivals.lateness_bound_ns = 1e6;
  c.arrivals.accepted = accepted;
  LaneArrivals ok;
  ok.worker = 0;
  ok.test = "anderson-darling";
  ok.tested = 2000;
  ok.statistic = 0.5;
  ok.critical = 3.857;
  LaneArrivals bad = ok;
  bad.worker = 1;
  bad.statistic = 41.2;
  bad.passed = false;
  bad.bunched = 0.38;
  bad.planned_bunched = 0.04;
  bad.bunch_below_ns = 10'000;
  c.arrivals.lanes = {ok, bad};
  c.independence.tested = true;
  c.independence.samples = 100000;
  c.independence.vanish_lag = 37;
  c.independence.effective_fraction = 0.02711;
  c.response_time.push_back({99, 1000, 980, 1021, 990, 1010, 2711});
  return c;
}
}  // namespace

TEST(RunChecks, AFailedArrivalCheckInvalidatesTheRunUnlessAccepted) {
  RunResults r;
  r.checks = failed_arrivals(false);
  const Verdict v = judge(r);
  EXPECT_FALSE(v.valid);
  ASSERT_EQ(v.reasons.size(), 1u);
  EXPECT_EQ(
      v.reasons[0],
      "arrival process: worker 1: sends bunched: 38 % of gaps under 10µs where the plan has 4 % (A² 41.2 > "
      "3.86 at 1 %); --accept-bunching accepts it");
  VerdictBounds probe;  // a probe judges its phases apart, the whole run's arrival process not at all
  probe.judge_arrivals = false;
  EXPECT_TRUE(judge(r, probe).valid);
  r.checks = failed_arrivals(true);
  EXPECT_TRUE(judge(r).valid);
}

TEST(RunChecks, OneSummaryLine) {
  EXPECT_EQ(checks_line(RunChecks{}), "");
  EXPECT_EQ(checks_line(failed_arrivals(false)),
            "checks: arrivals ✗ (A² 41.2 > 3.86), independence ✗ (samples correlated at lag 37, effective n "
            "2,711 of 100,000; intervals widened ×6.1), p99 ± 2.1 %");
  RunChecks quiet;
  quiet.arrivals.why_not = "no arrival schedule: this model sends when responses return";
  quiet.independence.tested = true;
  quiet.independence.samples = 5000;
  quiet.independence.lag1 = 0.01;
  EXPECT_EQ(checks_line(quiet),
            "checks: arrivals not tested (no arrival schedule: this model sends when responses return), "
            "independence ✓ (lag 1 ρ 0.01, effective n 5,000 of 5,000)");
}

TEST(RunChecks, TheJsonBlockReadsBackAsWritten) {
  const RunChecks c = failed_arrivals(false);
  const auto back = run_checks_from_json(to_json(c), "run.json: ");
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(to_json(*back), to_json(c));
  EXPECT_EQ(back->arrivals.lanes[1].statistic, 41.2);
  EXPECT_EQ(*back->response_time[0].high, 1021);
}

TEST(RunChecks, ABadFieldIsNamedWithItsPath) {
  auto j = to_json(failed_arrivals(false));
  j["arrivals"]["lanes"][1]["statistic"] = "big";
  auto r = run_checks_from_json(j, "run.json: ");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message,
            "run.json: /checks/arrivals/lanes/1/statistic: expected a number, found string");
  j = to_json(failed_arrivals(false));
  j["independence"]["effective_fraction"] = 0;
  r = run_checks_from_json(j, "x: ");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("/checks/independence/effective_fraction: expected a share in (0, 1]"),
            std::string::npos);
  j = to_json(failed_arrivals(false));
  j["arrivals"]["lanes"][0]["test"] = "chi-square";
  r = run_checks_from_json(j, "x: ");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("expected anderson-darling or dispersion"), std::string::npos);
}
