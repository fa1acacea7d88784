// Capacity, collapse, knees, stop rules and bisection on constructed steps; the planned rates and the
// staircase.
#include "procedures/ramp/ramp_analysis.h"

#include <gtest/gtest.h>

#include "procedures/ramp/ramp_knee.h"
#include "procedures/ramp/ramp_plan.h"
#include "ramp_test_util.h"

using namespace openloop;
using namespace openloop::procedures;
using ramp_test::step;

namespace {
// Seed 000's rebuilt test, as steps: offered, goodput (< 2 s) and p99; 450/s the last one that keeps up.
std::vector<StepRecord> seed_ramp() {
  return {step(200, 200, 48),
          step(300, 300, 61),
          step(400, 400, 94),
          step(450, 449, 210),
          step(500, 351, 1900, false, StepState::unsteady),
          step(550, 88, 6400, false, StepState::unsteady),
          step(600, 0, 10000, false)};
}
}  // namespace

TEST(RampAnalysis, CapacityIsTheHighestPassingStepBracketedByTheNextFailure) {
  const RampFindings f = analyse_ramp(seed_ramp());
  ASSERT_TRUE(f.capacity && f.ceiling);
  EXPECT_EQ(*f.capacity, 3U);
  EXPECT_EQ(*f.ceiling, 4U);
  EXPECT_TRUE(f.bounded);
  // One capacity: the highest step that passed, not the bracket's middle (a rate no step ran).
  EXPECT_DOUBLE_EQ(f.capacity_rps, 450);
  EXPECT_DOUBLE_EQ(f.capacity_low_rps, 450);
  EXPECT_DOUBLE_EQ(f.capacity_high_rps, 500);
  EXPECT_NEAR(f.capacity_tolerance, 50.0 / 450, 1e-12);  // the bracket's width, what --tol bounds
  const std::string sentence = findings_sentence(seed_ramp(), f);
  EXPECT_EQ(sentence.rfind("Capacity 450/s: the highest step that met every SLO steadily; the first that did "
                           "not, 500/s, is 11.1% above it",
                           0),
            0U)
      << sentence;
  EXPECT_TRUE(f.failed_below.empty());
}

TEST(RampAnalysis, KneesOfBothCurves) {
  const RampFindings f = analyse_ramp(seed_ramp());
  ASSERT_TRUE(f.knee_goodput);
  EXPECT_EQ(*f.knee_goodput, 3U);  // 450/s: the last step whose goodput kept up
  ASSERT_TRUE(f.knee_latency);
  EXPECT_GE(*f.knee_latency, 3U);  // p99 turns steep from 450/s to 500/s
  EXPECT_LE(*f.knee_latency, 4U);
}

// nginx limit_req below its limit: p99 flat at 0.29-0.35 ms at every step, one step's 1.02 ms blip (its wide
// CI from few slow samples); Kneedle alone calls the bend before the blip a knee ("p99 at 250/s").
std::vector<StepRecord> flat_with_blip() {
  const double p99_ms[] = {0.31, 0.29, 0.33, 0.30, 0.35, 1.02, 0.32, 0.30, 0.34, 0.31};
  std::vector<StepRecord> steps;
  for (int i = 0; i < 10; ++i) {
    const double rate = 50.0 * (i + 1);
    StepRecord s = step(rate, rate, p99_ms[i]);
    auto& q = s.analysis.latency[2];
    q.low = static_cast<std::int64_t>(static_cast<double>(q.value) * (i == 5 ? 0.3 : 0.9));
    q.high = static_cast<std::int64_t>(static_cast<double>(q.value) * (i == 5 ? 1.5 : 1.1));
    steps.push_back(s);
  }
  return steps;
}

TEST(RampAnalysis, FlatP99WithOneBlipHasNoKnee) {
  const auto steps = flat_with_blip();
  std::vector<double> x, y;
  for (const auto& s : steps) {
    x.push_back(s.analysis.window.offered_rps);
    y.push_back(static_cast<double>(s.analysis.latency[2].value));
  }
  // The data does fool Kneedle alone ...
  ASSERT_TRUE(find_knee(x, y, KneeShape::convex, KneeDirection::increasing).has_value());
  // ... but no step above its bend stays beyond the confidence intervals below it.
  const RampFindings f = analyse_ramp(steps);
  EXPECT_FALSE(f.knee_latency.has_value());
  const std::string sentence = findings_sentence(steps, f);
  EXPECT_NE(sentence.find("no knee in p99 up to 500/s"), std::string::npos) << sentence;
}

TEST(RampAnalysis, AKneeNeedsEveryStepAboveItBeyondTheIntervalsBelow) {
  auto steps = seed_ramp();
  for (auto& s : steps) {  // ±10 %: the climb from 210 ms to 1.9 s and beyond is far outside
    auto& q = s.analysis.latency[2];
    q.low = static_cast<std::int64_t>(static_cast<double>(q.value) * 0.9);
    q.high = static_cast<std::int64_t>(static_cast<double>(q.value) * 1.1);
  }
  EXPECT_TRUE(analyse_ramp(steps).knee_latency.has_value());
  // A last step whose interval reaches back into the flat part's: the rise is not established.
  steps.back().analysis.latency[2].low = 50'000'000;
  EXPECT_FALSE(analyse_ramp(steps).knee_latency.has_value());
}

TEST(RampAnalysis, CollapseIsConfirmedOnTheNextStep) {
  const RampFindings f = analyse_ramp(seed_ramp());
  ASSERT_TRUE(f.collapse && f.collapse_confirmed_by && f.peak);
  EXPECT_EQ(*f.peak, 3U);
  EXPECT_EQ(*f.collapse, 4U);  // 351 ≤ 0.9 × 449
  EXPECT_EQ(*f.collapse_confirmed_by, 5U);
}

TEST(RampAnalysis, ADipThatTheNextStepDoesNotRepeatIsNoCollapse) {
  const std::vector<StepRecord> steps{step(100, 100, 5), step(200, 200, 5), step(300, 150, 5),
                                      step(400, 400, 5)};
  EXPECT_FALSE(analyse_ramp(steps).collapse.has_value());
}

TEST(RampAnalysis, InvalidStepsAreNeitherCapacityNorCeiling) {
  std::vector<StepRecord> steps{step(100, 100, 5), step(200, 200, 5),
                                step(300, 100, 900, false, StepState::invalid)};
  const RampFindings f = analyse_ramp(steps);
  ASSERT_TRUE(f.capacity);
  EXPECT_EQ(*f.capacity, 1U);
  EXPECT_FALSE(f.bounded);
  EXPECT_NE(findings_sentence(steps, f).find("INVALID"), std::string::npos);
}

TEST(RampAnalysis, AFailureBelowCapacityIsReported) {
  const std::vector<StepRecord> steps{step(100, 100, 5), step(200, 200, 5, false), step(300, 300, 5),
                                      step(400, 300, 500, false)};
  const RampFindings f = analyse_ramp(steps);
  EXPECT_EQ(*f.capacity, 2U);
  ASSERT_EQ(f.failed_below.size(), 1U);
  EXPECT_EQ(f.failed_below[0], 1U);
}

TEST(RampAnalysis, NoPassingStepMeansCapacityBelowTheFirst) {
  const std::vector<StepRecord> steps{step(100, 50, 500, false), step(200, 60, 900, false)};
  const RampFindings f = analyse_ramp(steps);
  EXPECT_FALSE(f.capacity.has_value());
  EXPECT_NE(findings_sentence(steps, f).find("below 100/s"), std::string::npos);
}

TEST(RampAnalysis, StopRules) {
  auto steps = seed_ramp();
  steps.resize(5);  // up to 500/s: collapse not yet confirmed, but 500/s failed
  EXPECT_EQ(stop_reason(steps, StopAt::collapse), "");
  EXPECT_NE(stop_reason(steps, StopAt::slo).find("500/s"), std::string::npos);
  steps = seed_ramp();
  steps.resize(6);
  EXPECT_NE(stop_reason(steps, StopAt::collapse).find("collapse at 500/s"), std::string::npos);
  EXPECT_EQ(stop_reason(steps, StopAt::never), "");
  const std::vector<StepRecord> invalid{step(100, 100, 5), step(200, 0, 0, false, StepState::invalid),
                                        step(300, 0, 0, false, StepState::invalid)};
  EXPECT_NE(stop_reason(invalid, StopAt::collapse).find("INVALID"), std::string::npos);
}

TEST(RampAnalysis, RefinementBisectsTheBracketUntilWithinTolerance) {
  std::vector<StepRecord> steps{step(650, 650, 6), step(800, 800, 8), step(950, 900, 750, false)};
  auto next = next_refinement(steps, 0.02);
  ASSERT_TRUE(next);
  EXPECT_DOUBLE_EQ(*next, 875);
  steps.push_back(step(875, 860, 400, false, StepState::unsteady, true));
  next = next_refinement(steps, 0.02);
  ASSERT_TRUE(next);
  EXPECT_DOUBLE_EQ(*next, 837.5);
  steps.push_back(step(837.5, 837.5, 9, true, StepState::steady, true));
  steps.push_back(step(856.25, 850, 60, false, StepState::unsteady, true));  // bracket 837.5..856.25: 2.2 % wide
  // --tol is the bracket's width: 2.2 % is not within 2 %, it is within 2.5 %.
  ASSERT_TRUE(next_refinement(steps, 0.02));
  EXPECT_DOUBLE_EQ(*next_refinement(steps, 0.02), 846.875);
  EXPECT_FALSE(next_refinement(steps, 0.025).has_value());
  EXPECT_EQ(*analyse_ramp(steps).capacity, 4U);
  steps.push_back(step(846, 0, 0, false, StepState::invalid, true));
  EXPECT_FALSE(next_refinement(steps, 0.001).has_value());  // an INVALID refinement ends the bisection
}

TEST(RampPlan, PlannedRates) {
  RampSettings s;
  s.from_rps = 200;
  s.step_add = 150;
  s.to_rps = 800;
  EXPECT_EQ(planned_rates(s), (std::vector<double>{200, 350, 500, 650, 800}));
  s.step_add = 0;
  s.step_mult = 2;
  s.to_rps = 0;
  s.max_steps = 4;
  EXPECT_EQ(planned_rates(s), (std::vector<double>{200, 400, 800, 1600}));
}

TEST(RampPlan, StaircaseStepsAtZeroLengthStagesAndWindowsSkipTheWarmup) {
  const auto profile = staircase({100, 300}, std::chrono::seconds(1), std::chrono::seconds(3));
  EXPECT_EQ(profile.duration(), std::chrono::seconds(8));
  EXPECT_DOUBLE_EQ(profile.rate_at(std::chrono::milliseconds(3999)), 100);
  EXPECT_DOUBLE_EQ(profile.rate_at(std::chrono::seconds(4)), 300);
  EXPECT_DOUBLE_EQ(profile.total_expected(), 400 + 1200);
  const StepWindow w = staircase_window(1, 300, std::chrono::seconds(1), std::chrono::seconds(3));
  EXPECT_DOUBLE_EQ(w.from_s, 5);
  EXPECT_DOUBLE_EQ(w.to_s, 8);
}

TEST(RampPlan, ASingleStepRunStartsAfterItsSilence) {
  engine::RunPlan base;
  RampSettings s;
  s.warmup = std::chrono::seconds(1);
  s.hold = std::chrono::seconds(3);
  const engine::RunPlan p = single_step_plan(base, 500, std::chrono::seconds(5), s);
  EXPECT_EQ(p.warmup, std::chrono::seconds(0));
  EXPECT_EQ(p.duration, std::chrono::seconds(9));
  const StepWindow w = single_step_window(500, std::chrono::seconds(5), s);
  EXPECT_DOUBLE_EQ(w.from_s, 6);
  EXPECT_DOUBLE_EQ(w.to_s, 9);
  EXPECT_DOUBLE_EQ(p.profile.rate_at(std::chrono::seconds(4)), 0);
  EXPECT_DOUBLE_EQ(p.profile.rate_at(std::chrono::seconds(5)), 500);
  EXPECT_DOUBLE_EQ(p.profile.total_expected(), 2000);
}
