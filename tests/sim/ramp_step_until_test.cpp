// --step-until on virtual time: a --fresh ramp of one step against four workers of exponential 1-ms service
// (M/M/4 at ρ 0.075, samples close to independent; at ρ 0.3 on one worker the step stopped on the in-run judgement
// and its final one on the effective n said "not met", as docs/statistics.md explains). A target its samples reach quickly ends the step before its cap, on a window at least
// --hold long; an impossible one holds the step to the cap and says how much longer it would have needed.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstdio>
#include <functional>

#include "procedures/ramp/ramp_report.h"
#include "procedures/ramp/ramp_runner.h"
#include "results/judging/until.h"
#include "sim_plans.h"

using namespace openloop;
using namespace openloop::sim::testing;
using namespace std::chrono_literals;

namespace {

procedures::RampSettings one_step(const char* until, const lab::LabConfig& lab) {
  procedures::RampSettings s;
  s.from_rps = 300;
  s.to_rps = 300;
  s.step_add = 100;
  s.warmup = 1s;
  s.hold = 3s;
  s.fresh = true;
  s.stop_at = procedures::StopAt::never;
  s.step.timeout = 30s;
  s.step_until = {*results::parse_until(until)};
  s.step_max_hold = 40s;
  s.runner =
      [&lab](const engine::RunPlan& plan, std::atomic<int>& stop,
             const std::function<void(const results::RunResults&)>& progress) -> Result<results::RunResults> {
    auto ran = OPENLOOP_TRY(sim::simulate(plan, lab, stop, progress));
    return std::move(ran.results);
  };
  return s;
}

}  // namespace

TEST(RampStepUntil, AStepWhoseTargetHoldsEndsBeforeItsCap) {
  const lab::LabConfig lab = lab_of("--workers 4 --service exp:1ms --seed 5");
  const procedures::RampSettings s = one_step("p50:±10%", lab);
  engine::RunPlan base = open_plan(300, 1s);
  base.seed = 3;
  std::atomic<int> stop{0};
  auto out = procedures::run_ramp(base, s, stop, {});
  ASSERT_TRUE(out) << out.error().message;
  ASSERT_EQ(out->steps.size(), 1U);
  ASSERT_EQ(out->runs.size(), 1U);
  EXPECT_FALSE(out->interrupted);
  EXPECT_EQ(stop.load(), 0);  // the ramp took its own stop back
  const procedures::StepRecord& step = out->steps.front();
  const double held = step.analysis.results.measured_s;
  // At least --hold, well short of the 40-s cap; the window starts after the warm-up and ends where it was
  // met.
  EXPECT_GE(held, 3.0 - 1e-6);
  EXPECT_LT(held, 20.0);
  EXPECT_DOUBLE_EQ(step.analysis.window.from_s, 1.0);
  EXPECT_NEAR(step.analysis.window.to_s - step.analysis.window.from_s, held, 1e-6);
  // The run ended soon after: not interrupted, with a warning saying why, far short of its planned 41 s.
  const results::RunResults& run = out->runs.front();
  EXPECT_FALSE(run.interrupted);
  EXPECT_LT(run.measured_s, 21.0);
  bool warned = false;
  for (const auto& w : run.warnings)
    warned = warned || w.find("every --step-until target held") != std::string::npos;
  EXPECT_TRUE(warned);
  // Judged on the step's own window: about 300/s × held samples, the window's independence checked.
  EXPECT_NEAR(static_cast<double>(step.analysis.results.response_time.total_count()), 300 * held,
              0.15 * 300 * held);
  EXPECT_TRUE(step.analysis.independence.tested);
  EXPECT_EQ(step.analysis.state, procedures::StepState::steady);
  ASSERT_EQ(step.until.size(), 1U);
  EXPECT_TRUE(step.until.front().met) << step.until.front().sentence();
  EXPECT_LE(*step.until.front().achieved, 0.10);
  // Shown in the JSON and the text.
  const auto j = procedures::ramp_to_json(*out, s);
  EXPECT_EQ(j["steps"][0]["until"][0]["met"], true);
  EXPECT_EQ(j["settings"]["step_until"][0], "p50:±10%");
  EXPECT_NE(procedures::render_ramp_summary(*out, s).find("--step-until:"), std::string::npos);
  EXPECT_NE(procedures::step_line(step).find("--step-until met"), std::string::npos);
  std::printf("p50 ±10 %%: step held %.1f s (hold 3 s, cap 40 s): %s\n", held,
              step.until.front().sentence().c_str());
}

TEST(RampStepUntil, AnImpossibleTargetHoldsTheStepToItsCapAndSaysHowMuchLonger) {
  const lab::LabConfig lab = lab_of("--workers 4 --service exp:1ms --seed 5");
  procedures::RampSettings s = one_step("p99.99:±0.1%", lab);
  s.step_max_hold = 8s;
  engine::RunPlan base = open_plan(300, 1s);
  base.seed = 3;
  std::atomic<int> stop{0};
  auto out = procedures::run_ramp(base, s, stop, {});
  ASSERT_TRUE(out) << out.error().message;
  ASSERT_EQ(out->steps.size(), 1U);
  const procedures::StepRecord& step = out->steps.front();
  EXPECT_NEAR(step.analysis.results.measured_s, 8.0, 1e-6);
  EXPECT_NEAR(step.analysis.window.to_s, 9.0, 1e-6);
  EXPECT_FALSE(out->runs.front().interrupted);
  ASSERT_EQ(step.until.size(), 1U);
  const results::UntilOutcome& u = step.until.front();
  EXPECT_FALSE(u.met);
  EXPECT_TRUE(std::isfinite(u.more_seconds));
  EXPECT_GT(u.more_seconds, 8.0);
  EXPECT_NE(u.sentence().find("would need about"), std::string::npos) << u.sentence();
  EXPECT_NE(procedures::step_line(step).find("not met: p99.99 ±0.1 %"), std::string::npos)
      << procedures::step_line(step);
  std::printf("p99.99 ±0.1 %%: %s\n", u.sentence().c_str());
}
