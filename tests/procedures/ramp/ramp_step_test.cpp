// Step analysis on constructed interval series: the window, rates, goodput at a deadline, wall-clock
// throughput, and the steady-state verdict (steady, growing backlog, varying goodput, generator problems, too
// short).
#include "procedures/ramp/ramp_step.h"

#include <gtest/gtest.h>

#include "ramp_test_util.h"

using namespace openloop;
using namespace openloop::procedures;
using ramp_test::IntervalSpec;
using ramp_test::mentions;

namespace {
StepContext context() {
  StepContext c;
  c.timeout = std::chrono::seconds(1);
  return c;
}
StepAnalysis analyse(const results::RunResults& run, double from_s, double to_s, double rate,
                     const StepContext& ctx = context()) {
  auto a = analyse_step(run, StepWindow{rate, 0, from_s, to_s}, ctx);
  EXPECT_TRUE(a.has_value());
  return a ? *a : StepAnalysis{};
}
}  // namespace

TEST(RampStep, SteadyStepHasItsRatesPercentilesAndLittlesLaw) {
  auto run = ramp_test::run_of(ramp_test::steady(0, 6, 100, 5'000'000));
  const StepAnalysis a = analyse(run, 1, 6, 100);  // the first second is the step's warm-up
  EXPECT_EQ(a.state, StepState::steady) << (a.reasons.empty() ? "" : a.reasons.front());
  EXPECT_EQ(a.results.intervals.size(), 5U);
  EXPECT_EQ(a.results.totals.intended, 500U);
  EXPECT_DOUBLE_EQ(a.goodput_rps, 100);
  EXPECT_NEAR(a.completed_rps, 100, 1e-9);
  EXPECT_NEAR(static_cast<double>(a.latency[2].value) / 1e6, 5.0, 0.01);
  EXPECT_NEAR(a.mean_in_flight, 100 * 0.005, 1e-3);  // Little: 100/s × 5 ms
  EXPECT_NEAR(a.in_flight_growth, 0, 1e-9);
  EXPECT_EQ(a.results.intervals.front().start_s, 0);  // re-based to the window
}

// Offered above capacity: every second's requests wait 100 ms longer than the last second's.
TEST(RampStep, GrowingBacklogIsUnsteady) {
  std::vector<IntervalSpec> specs = ramp_test::steady(0, 6, 100, 0);
  for (std::size_t i = 0; i < specs.size(); ++i)
    specs[i].rt_ns = 10'000'000 + static_cast<std::int64_t>(i) * 100'000'000;
  const StepAnalysis a = analyse(ramp_test::run_of(specs), 0, 6, 100);
  EXPECT_EQ(a.state, StepState::unsteady);
  EXPECT_TRUE(mentions(a, "backlog is growing"));
  EXPECT_TRUE(mentions(a, "mean response time"));
  EXPECT_GT(a.in_flight_growth, 40);  // 10 requests more per second over 6 s ≈ 50
}

TEST(RampStep, VaryingGoodputIsUnsteady) {
  std::vector<IntervalSpec> specs = ramp_test::steady(0, 6, 100, 5'000'000);
  for (std::size_t i = 1; i < specs.size(); i += 2) {
    specs[i].ok = 70;
    specs[i].bad_status = 30;
  }
  const StepAnalysis a = analyse(ramp_test::run_of(specs), 0, 6, 100);
  EXPECT_EQ(a.state, StepState::unsteady);
  EXPECT_TRUE(mentions(a, "coefficient of variation"));
  EXPECT_NEAR(a.goodput_rps, 85, 1e-9);
}

TEST(RampStep, HalvesThatDisagreeAreUnsteady) {
  std::vector<IntervalSpec> specs = ramp_test::steady(0, 6, 100, 5'000'000);
  for (std::size_t i = 3; i < 6; ++i) {
    specs[i].ok = 80;
    specs[i].timeouts = 20;
  }
  const StepAnalysis a = analyse(ramp_test::run_of(specs), 0, 6, 100);
  EXPECT_TRUE(mentions(a, "the halves disagree: goodput"));
  EXPECT_NEAR(a.first_half_goodput, 1.0, 1e-9);
  EXPECT_NEAR(a.second_half_goodput, 0.8, 1e-9);
}

TEST(RampStep, DropsMakeTheStepInvalidNotAFinding) {
  std::vector<IntervalSpec> specs = ramp_test::steady(0, 4, 100, 5'000'000);
  for (auto& s : specs) s.dropped = 5;
  const StepAnalysis a = analyse(ramp_test::run_of(specs), 0, 4, 105);
  EXPECT_EQ(a.state, StepState::invalid);
  EXPECT_TRUE(mentions(a, "dropped"));
}

TEST(RampStep, LateSendsMakeTheStepInvalid) {
  std::vector<IntervalSpec> specs = ramp_test::steady(0, 4, 100, 5'000'000);
  for (auto& s : specs) s.late_ns = 5'000'000;  // bound: max(1 ms, 10% of a 10 ms gap) = 1 ms
  EXPECT_EQ(analyse(ramp_test::run_of(specs), 0, 4, 100).state, StepState::invalid);
  StepContext lenient = context();
  lenient.bounds.generator.lateness_floor_ms = 10;  // --max-lateness 10ms
  EXPECT_EQ(analyse(ramp_test::run_of(specs), 0, 4, 100, lenient).state, StepState::steady);
}

TEST(RampStep, AWindowOfOneIntervalIsTooShortToJudge) {
  const StepAnalysis a = analyse(ramp_test::run_of(ramp_test::steady(0, 3, 100, 5'000'000)), 1, 2, 100);
  EXPECT_EQ(a.state, StepState::unsteady);
  EXPECT_TRUE(mentions(a, "too short"));
}

// The client waits up to 10 s; goodput counts only what came within the 1 s deadline.
TEST(RampStep, GoodputCountsOnlyResponsesWithinTheDeadline) {
  std::vector<IntervalSpec> specs = ramp_test::steady(0, 4, 100, 500'000'000);
  for (std::size_t i = 2; i < 4; ++i) specs[i].rt_ns = 1'500'000'000;
  auto run = ramp_test::run_of(specs);
  StepContext ctx = context();
  ctx.timeout = std::chrono::seconds(10);
  ctx.deadline = std::chrono::seconds(1);
  const StepAnalysis a = analyse(run, 0, 4, 100, ctx);
  EXPECT_NEAR(a.goodput_rps, 50, 1e-9);
  EXPECT_TRUE(a.goodput_exact);
  EXPECT_NEAR(a.completed_of_arrivals_rps, 100, 1e-9);
}

TEST(RampStep, ABrokenHistogramIsAnError) {
  auto run = ramp_test::run_of(ramp_test::steady(0, 3, 100, 5'000'000));
  run.intervals.resident(1).response_time_hist = "HISTFAAAnot-a-histogram";
  EXPECT_FALSE(analyse_step(run, StepWindow{100, 0, 0, 3}, context()).has_value());
}
