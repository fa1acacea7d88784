// The staircase's steps as the ramp leaves them: judged while the run went on, then judged again from the
// finished run, so the table, the file and `openloop report` name the same causes.
#include "procedures/ramp/ramp_runner.h"

#include <gtest/gtest.h>

#include <atomic>
#include <functional>

#include "ramp_test_util.h"
#include "results/judging/timer_floor.h"

using namespace openloop;
using namespace std::chrono_literals;

namespace {

// A step whose sends were late (5 ms against a 1-ms bound) on a host whose floor takes the blame, with
// --spin-below auto's lead as the results carrying it say.
results::RunResults late_run(double spin_lead_us) {
  std::vector<ramp_test::IntervalSpec> specs = ramp_test::steady(0, 4, 100, 5'000'000);
  for (auto& s : specs) s.late_ns = 5'000'000;
  results::RunResults run = ramp_test::run_of(specs);
  results::TimerFloor f;
  f.samples = 2000;
  f.gap_us = 500;
  f.p50_us = 57;
  f.p99_us = 1010;
  f.max_us = 2060;
  f.spin_lead_us = spin_lead_us;
  f.spin_budget = 0.5;
  f.spin_budget_low = 0.5;
  results::set_timer_floor(run.info, f);
  return run;
}

}  // namespace

// The run's progress carries the lead the workers took before it (888 µs); --spin-below auto raised it to
// 2.8 ms during the run, as the finished results (and the file) record. The step says the finished run's.
TEST(RampRunner, AStepJudgedLiveIsJudgedAgainFromTheFinishedRun) {
  procedures::RampSettings s;
  s.from_rps = 100;
  s.to_rps = 100;
  s.step_add = 100;
  s.warmup = 1s;
  s.hold = 3s;
  s.stop_at = procedures::StopAt::never;
  s.step.timeout = 1s;
  s.runner =
      [](const engine::RunPlan&, std::atomic<int>&,
         const std::function<void(const results::RunResults&)>& progress) -> Result<results::RunResults> {
    progress(late_run(888));
    return late_run(2800);
  };
  std::atomic<int> stop{0};
  std::vector<std::string> live;
  const procedures::StepFn on_step = [&live](const procedures::StepRecord& step) {
    live.push_back(step.analysis.reasons.empty() ? "" : step.analysis.reasons.front());
  };
  auto out = procedures::run_ramp(engine::RunPlan{}, s, stop, on_step);
  ASSERT_TRUE(out) << out.error().message;
  ASSERT_EQ(out->steps.size(), 1U);
  // Judged live on the results so far: their lead.
  ASSERT_EQ(live.size(), 1U);
  EXPECT_NE(live.front().find("spun through the last 888µs"), std::string::npos) << live.front();
  const procedures::StepRecord& step = out->steps.front();
  EXPECT_EQ(step.analysis.state, procedures::StepState::invalid);
  EXPECT_TRUE(ramp_test::mentions(step.analysis, "spun through the last 2.8ms of each wait"))
      << step.analysis.reasons.front();
  EXPECT_FALSE(ramp_test::mentions(step.analysis, "888µs"));
  EXPECT_EQ(step.number, 1U);
  EXPECT_EQ(step.analysis.window.run, 0U);
}
