// The self-checks' findings: the verdict's reason, the summary line, and the results file's block written and
// read back with bad fields named.
#include "results/judging/run_checks.h"

#include <gtest/gtest.h>

#include "results/judging/verdict.h"
#include "results/recording/interval_stats.h"

using namespace openloop::results;

namespace {
// The checks of a results file named `file`, read back from its "/checks".
openloop::Result<RunChecks> checks_from(const nlohmann::json& checks, const char* file) {
  const JsonReader rd(file);
  return run_checks_from_json(rd, JsonNode{&checks, "/checks"});
}
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
      "arrival process: worker 1: sends bunched: 38 % of gaps under 10µs where the plan has 4 % (Anderson-Darling "
      "A² 41.2 > 3.86 at 1 %); --accept-bunching accepts it");
  VerdictBounds probe;  // a probe judges its phases apart, the whole run's arrival process not at all
  probe.judge_arrivals = false;
  EXPECT_TRUE(judge(r, probe).valid);
  r.checks = failed_arrivals(true);
  EXPECT_TRUE(judge(r).valid);
}

TEST(RunChecks, BunchingBehindLateSendsNamesTheLatenessNotItsOwnTest) {
  // A constant-rate lane whose dispersion test passed but whose gaps bunched: the failure says what bunched,
  // without the passing comparison, and, after a lateness reason, points at the late sends.
  RunChecks c = failed_arrivals(false);
  c.arrivals.process = "constant";
  c.arrivals.lanes[1].test = "dispersion";
  c.arrivals.lanes[1].statistic = 0.176;
  c.arrivals.lanes[1].critical = 1;
  std::vector<std::string> reasons;
  add_check_reasons(c, reasons);
  ASSERT_EQ(reasons.size(), 1u);
  EXPECT_EQ(reasons[0],
            "arrival process: worker 1: sends bunched: 38 % of gaps under 10µs where the plan has 4 %; "
            "--accept-bunching accepts it");
  reasons = {"send lateness p99 27.5ms > 1ms: the generator could not send on schedule"};
  add_check_reasons(c, reasons);
  ASSERT_EQ(reasons.size(), 2u);
  EXPECT_EQ(reasons[1],
            "arrival process: worker 1: sends bunched: 38 % of gaps under 10µs where the plan has 4 %; most "
            "likely the late sends above, sent together as the worker caught up");
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

// Correlation is flagged only where it changes the intervals materially: at least 10 % wider than independence
// would make them (n / n_eff ≥ 1.21, docs/statistics.md). Just under, the line says independence ✓.
TEST(RunChecks, IndependenceIsFlaggedOnlyWhenItWidensTheIntervalsByTenPercent) {
  RunChecks c;
  c.independence.tested = true;
  c.independence.samples = 10'000;
  c.independence.vanish_lag = 3;
  c.independence.effective_fraction = 1 / (1.09 * 1.09);  // intervals 9 % wider
  EXPECT_FALSE(c.independence.correlated());
  EXPECT_NE(checks_line(c).find("independence ✓"), std::string::npos) << checks_line(c);
  EXPECT_EQ(correlation_flag(c.independence), "");
  c.independence.effective_fraction = 1 / (1.11 * 1.11);  // 11 % wider
  EXPECT_TRUE(c.independence.correlated());
  EXPECT_NE(checks_line(c).find("independence ✗ (samples correlated at lag 3, effective n 8,116 of 10,000; "
                                "intervals widened ×1.1)"),
            std::string::npos)
      << checks_line(c);
  EXPECT_NE(correlation_flag(c.independence), "");
}

// A p99 the samples cannot bound says how much longer a run would: 400 samples correlated down to an
// effective 15 need z²·p/(1−p) = 1.96²·99 ≈ 380 effective samples, about 26 times as many.
TEST(RunChecks, AnUnboundedPercentileSaysHowMuchLongerWouldBoundIt) {
  RunChecks c;
  c.independence.tested = true;
  c.independence.samples = 400;
  c.independence.vanish_lag = 35;
  c.independence.vanished = true;
  c.independence.effective_fraction = 15.0 / 400;
  PercentileInterval p99;
  p99.percentile = 99;
  p99.value = 1000;
  p99.low = 900;  // the upper side is missing
  p99.effective_count = 15;
  c.response_time.push_back(p99);
  const std::string line = checks_line(c);
  EXPECT_NE(line.find("p99 unbounded (effective n 15 of 400; a run about 26× as long would bound it)"),
            std::string::npos)
      << line;
  EXPECT_EQ(line.find("± ?"), std::string::npos) << line;
}

TEST(RunChecks, TheJsonBlockReadsBackAsWritten) {
  const RunChecks c = failed_arrivals(false);
  const auto back = checks_from(to_json(c), "run.json");
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(to_json(*back), to_json(c));
  EXPECT_EQ(back->arrivals.lanes[1].statistic, 41.2);
  EXPECT_EQ(*back->response_time[0].high, 1021);
}

TEST(RunChecks, ABadFieldIsNamedWithItsPath) {
  auto j = to_json(failed_arrivals(false));
  j["arrivals"]["lanes"][1]["statistic"] = "big";
  auto r = checks_from(j, "run.json");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message,
            "run.json: /checks/arrivals/lanes/1/statistic: expected a number, found string");
  j = to_json(failed_arrivals(false));
  j["independence"]["effective_fraction"] = 0;
  r = checks_from(j, "x");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("/checks/independence/effective_fraction: expected a share in (0, 1]"),
            std::string::npos);
  j = to_json(failed_arrivals(false));
  j["arrivals"]["lanes"][0]["test"] = "chi-square";
  r = checks_from(j, "x");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("expected anderson-darling or dispersion"), std::string::npos);
}

TEST(RunChecks, WindowsReadBackAndAreFoundByTheirBounds) {
  RunChecks c = failed_arrivals(false);
  IndependenceCheck quiet;
  quiet.tested = true;
  quiet.samples = 2000;
  c.windows.push_back({2, 12, quiet});
  c.windows.push_back({14, 24, c.independence});
  const auto back = checks_from(to_json(c), "run.json");
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(to_json(*back), to_json(c));
  ASSERT_NE(back->window(14.0004, 24), nullptr);
  EXPECT_TRUE(back->window(14, 24)->correlated());
  EXPECT_FALSE(back->window(2, 12)->correlated());
  EXPECT_EQ(back->window(2, 13), nullptr);
  EXPECT_EQ(correlation_flag(*back->window(2, 12)), "");
  EXPECT_EQ(correlation_flag(*back->window(14, 24)),
            "samples correlated at lag 37, effective n 2,711 of 100,000; interval widened ×6.1");
  auto j = to_json(c);
  j["windows"][1]["independence"]["effective_fraction"] = 2;
  const auto bad = checks_from(j, "x");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("/checks/windows/1/independence/effective_fraction"), std::string::npos)
      << bad.error().message;
}

TEST(RunChecks, APercentileIntervalOnTheEffectiveSampleSizeIsWider) {
  openloop::hdr::Histogram h = make_latency_histogram();
  for (std::int64_t v = 1; v <= 10'000; ++v) h.record(v * 1000);
  IndependenceCheck c;
  c.tested = true;
  c.samples = 10'000;
  c.effective_fraction = 0.04;  // intervals 5 × wider
  const PercentileInterval p = percentile_interval(h, 50, &c);
  ASSERT_TRUE(p.low && p.high && p.naive_low && p.naive_high);
  EXPECT_NEAR(static_cast<double>(*p.high - *p.low), 5.0 * static_cast<double>(*p.naive_high - *p.naive_low),
              0.1 * static_cast<double>(*p.naive_high - *p.naive_low) * 5);
  EXPECT_DOUBLE_EQ(p.effective_count, 400);
  const PercentileInterval naive = percentile_interval(h, 50, nullptr);
  EXPECT_EQ(naive.low, p.naive_low);
  EXPECT_EQ(naive.high, p.naive_high);
}
