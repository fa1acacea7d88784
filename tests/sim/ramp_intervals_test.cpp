// Each ramp step's percentile intervals on the step's own effective sample size, on virtual time: a staircase
// against one worker of exponential 1-ms service (M/M/1) at ρ 0.2 and ρ 0.95. Near saturation a request waits
// behind the ones before it, so successive response times are strongly correlated: that step is flagged and its
// intervals widened; at ρ 0.2 the step's intervals stay within a few percent of the naive ones.
#include <gtest/gtest.h>

#include <atomic>
#include <functional>

#include "procedures/ramp/ramp_report.h"
#include "procedures/ramp/ramp_runner.h"
#include "results/judging/run_checks.h"
#include "sim_plans.h"

using namespace openloop;
using namespace openloop::sim::testing;
using namespace std::chrono_literals;

namespace {

// Width of a step's p50 interval (high − low), ns.
double width(const stats::QuantileEstimate& q) {
  return q.low && q.high ? static_cast<double>(*q.high - *q.low) : 0;
}

}  // namespace

TEST(RampIntervals, EachStepIsCheckedOnItsOwnSamplesAndTheSaturatedOneWidened) {
  procedures::RampSettings s;
  s.from_rps = 200;
  s.step_add = 750;
  s.to_rps = 950;
  s.warmup = 2s;
  s.hold = 20s;
  s.stop_at = procedures::StopAt::never;
  s.step.timeout = 30s;
  const lab::LabConfig lab = lab_of("--workers 1 --service exp:1ms --seed 5");
  s.runner = [&lab](const engine::RunPlan& plan, std::atomic<int>& stop,
                    const std::function<void(const results::RunResults&)>& progress)
      -> Result<results::RunResults> {
    auto ran = OPENLOOP_TRY(sim::simulate(plan, lab, stop, progress));
    return std::move(ran.results);
  };
  engine::RunPlan base = open_plan(200, 1s);
  base.seed = 3;
  std::atomic<int> stop{0};
  auto out = procedures::run_ramp(base, s, stop, {});
  ASSERT_TRUE(out) << out.error().message;
  ASSERT_EQ(out->steps.size(), 2U);
  const auto& light = out->steps[0].analysis;
  const auto& heavy = out->steps[1].analysis;
  // Both steps were checked on their own samples (a staircase run names each step's window).
  ASSERT_TRUE(light.independence.tested);
  ASSERT_TRUE(heavy.independence.tested);
  EXPECT_NEAR(static_cast<double>(light.independence.samples), 200.0 * 20, 400);
  EXPECT_NEAR(static_cast<double>(heavy.independence.samples), 950.0 * 20, 1000);
  // Near saturation: correlated, flagged, and its intervals wider than independence would make them.
  EXPECT_TRUE(heavy.independence.correlated());
  EXPECT_GT(heavy.independence.widening(), 2.0);
  EXPECT_GT(heavy.independence.widening(), light.independence.widening());
  const auto naive = stats::estimate_quantile(heavy.results.response_time, 50);
  EXPECT_GT(width(heavy.latency[0]), 1.5 * width(naive));
  EXPECT_LT(heavy.latency[0].effective_count, 0.5 * static_cast<double>(heavy.latency[0].count));
  // At ρ 0.2 the step's interval stays close to the naive one.
  EXPECT_LT(light.independence.widening(), 1.5);
  // The flag reaches the ramp's JSON and its text.
  const auto j = procedures::ramp_to_json(*out, s);
  const std::string dumped = j.dump();
  EXPECT_NE(dumped.find("samples correlated at lag"), std::string::npos);
  EXPECT_NE(dumped.find("\"effective_count\""), std::string::npos);
  std::printf("widening: %.2f at rho 0.2, %.2f at rho 0.95; heavy p50 interval %.3f ms (naive %.3f ms)\n",
              light.independence.widening(), heavy.independence.widening(), width(heavy.latency[0]) / 1e6,
              width(naive) / 1e6);
}
