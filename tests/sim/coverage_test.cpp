// The run summary's 95 % percentile intervals (order statistics on the effective sample size) checked for
// coverage on virtual time: over 200 seeded M/M/1 runs, the p50 and the p90 intervals must each contain the
// true percentile in at least 93 % of them (186 of 200). For an exact 95 % interval the count is
// binomial(200, 0.95), mean 190, sd 3.1: 186 is 1.3 sd below, so an honest interval passes for most seed sets
// and one as narrow as the naive interval under this correlation (coverage well under 90 %) fails. The seeds
// are fixed: the test is deterministic.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "sim_plans.h"

using namespace openloop;
using namespace openloop::sim::testing;
using namespace std::chrono_literals;

namespace {

// M/M/1 FIFO, mean service S, load ρ: the stationary sojourn time is exponential with mean S/(1 − ρ), so its
// p-quantile is −ln(1 − p)·S/(1 − ρ) (Kleinrock, Queueing Systems I, §3.2). In ns.
double mm1_sojourn_quantile_ns(double p, double service_ns, double rho) {
  return -std::log(1 - p) * service_ns / (1 - rho);
}

}  // namespace

TEST(PercentileIntervals, P50AndP90CoverTheTruthInAtLeast93PercentOf200SeededRuns) {
  // ρ 0.5 with S = 1 ms: samples are correlated over a few requests (the independence check widens the
  // intervals); 1,000 measured requests a run after a 1 s warm-up from the empty queue (stationary within
  // about 50 ms: the relaxation time S/(1 − √ρ)² is 12 ms).
  const double rho = 0.5, service_ns = 1e6, rate = rho / (service_ns / 1e9);
  const int runs = 200;
  int covered_p50 = 0, covered_p90 = 0, covered_p99 = 0, bounded_p99 = 0, naive_covered_p90 = 0,
      correlated = 0;
  for (int seed = 1; seed <= runs; ++seed) {
    engine::RunPlan plan = open_plan(rate, 2s, 1s);
    plan.seed = static_cast<std::uint64_t>(seed);
    const auto r = run(plan, "--workers 1 --service exp:1ms --seed " + std::to_string(1000 + seed));
    ASSERT_GT(r.totals.completed, 800U);
    ASSERT_TRUE(r.checks.independence.tested);
    if (r.checks.independence.correlated()) ++correlated;
    for (const auto& p : r.checks.response_time) {
      const double truth = mm1_sojourn_quantile_ns(p.percentile / 100, service_ns, rho);
      const bool in =
          p.low && p.high && static_cast<double>(*p.low) <= truth && truth <= static_cast<double>(*p.high);
      if (p.percentile == 50) covered_p50 += in ? 1 : 0;
      if (p.percentile == 99) {
        covered_p99 += in ? 1 : 0;
        bounded_p99 += p.low && p.high ? 1 : 0;
      }
      if (p.percentile == 90) {
        covered_p90 += in ? 1 : 0;
        naive_covered_p90 += p.naive_low && p.naive_high && static_cast<double>(*p.naive_low) <= truth &&
                                     truth <= static_cast<double>(*p.naive_high)
                                 ? 1
                                 : 0;
      }
    }
  }
  RecordProperty("covered_p50", covered_p50);
  RecordProperty("covered_p90", covered_p90);
  RecordProperty("naive_covered_p90", naive_covered_p90);
  // At 1,000 samples the p99's upper rank (990 + 1.96·1000·√(0.0099/n_eff)) lies past the last sample: no p99
  // interval has both sides, so p99 coverage cannot be checked at this size (reported only).
  RecordProperty("bounded_p99", bounded_p99);
  EXPECT_GE(covered_p50, 186) << "p50 interval covered the truth in " << covered_p50 << " of " << runs;
  // The p90's indicator is correlated over more requests than the ranks are; its effective n comes from batch
  // means with the t correction (stats/autocorrelation.h). Measured: 188 of 200 (the truncated sum alone:
  // 180; with Geyer's initial monotone sequence: 184).
  EXPECT_GE(covered_p90, 186) << "p90 interval covered the truth in " << covered_p90 << " of " << runs;
  EXPECT_GE(covered_p90, naive_covered_p90 + 50);
  // The correlation is real at this load, and ignoring it loses coverage (reported, and bounded loosely: the
  // naive interval must not be the better one).
  EXPECT_GT(correlated, runs / 2) << "runs flagged as correlated: " << correlated;
  EXPECT_LE(naive_covered_p90, covered_p90);
  std::printf(
      "coverage over %d runs: p50 %d, p90 %d (naive p90 %d), p99 %d (both sides in %d); flagged "
      "correlated %d\n",
      runs, covered_p50, covered_p90, naive_covered_p90, covered_p99, bounded_p99, correlated);
}
