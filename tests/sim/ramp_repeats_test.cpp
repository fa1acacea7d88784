// ramp --fresh --repeat on virtual time: two steps against one worker of exponential 2-ms service, each run
// three times with its own seed. The same ramp twice gives the same file; every repeat is kept and the step
// is judged on its upper median repeat by p99; a ramp file read back judges the same; a signal after a repeat
// keeps what ran.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <functional>
#include <memory>

#include "procedures/ramp/ramp_read.h"
#include "procedures/ramp/ramp_repeats.h"
#include "procedures/ramp/ramp_report.h"
#include "procedures/ramp/ramp_runner.h"
#include "sim_plans.h"

using namespace openloop;
using namespace openloop::sim::testing;
using namespace std::chrono_literals;

namespace {

// Two steps, 100/s and 200/s, 1 s warm-up + 3 s hold each, 3 repeats; `on_run` sees each run's number after
// it ran (from 1) and may raise the stop flag.
procedures::RampSettings two_steps(const lab::LabConfig& lab,
                                   std::function<void(int, std::atomic<int>&)> on_run = {}) {
  procedures::RampSettings s;
  s.from_rps = 100;
  s.to_rps = 200;
  s.step_add = 100;
  s.warmup = 1s;
  s.hold = 3s;
  s.fresh = true;
  s.repeat = 3;
  s.cooldown = 1s;
  s.stop_at = procedures::StopAt::never;
  s.step.timeout = 30s;
  s.slos = {*results::parse_slo("p99<=50ms", "--slo")};
  auto runs = std::make_shared<int>(0);
  s.runner =
      [&lab, runs, on_run](
          const engine::RunPlan& plan, std::atomic<int>& stop,
          const std::function<void(const results::RunResults&)>& progress) -> Result<results::RunResults> {
    auto ran = OPENLOOP_TRY(sim::simulate(plan, lab, stop, progress));
    ++*runs;
    if (on_run) on_run(*runs, stop);
    return std::move(ran.results);
  };
  return s;
}

engine::RunPlan base_plan() {
  engine::RunPlan base = open_plan(100, 1s);
  base.seed = 11;
  return base;
}

}  // namespace

TEST(RampRepeatsSim, EachStepRunsItsRepeatsWithTheirOwnSeedsAndIsJudgedOnTheMedian) {
  const lab::LabConfig lab = lab_of("--workers 1 --service exp:2ms --seed 5");
  const procedures::RampSettings s = two_steps(lab);
  std::atomic<int> stop{0};
  auto out = procedures::run_ramp(base_plan(), s, stop, {});
  ASSERT_TRUE(out) << out.error().message;
  ASSERT_EQ(out->steps.size(), 2U);
  ASSERT_EQ(out->runs.size(), 6U);
  EXPECT_FALSE(out->interrupted);
  for (std::size_t i = 0; i < 2; ++i) {
    const procedures::StepRecord& step = out->steps[i];
    EXPECT_EQ(step.number, i + 1);
    ASSERT_EQ(step.repeats.size(), 3U);
    EXPECT_EQ(step.repeat_set.planned, 3U);
    for (std::size_t k = 0; k < 3; ++k) {
      const procedures::StepRecord& r = step.repeats[k];
      EXPECT_EQ(r.analysis.window.run, 3 * i + k);  // one run each, in order
      EXPECT_EQ(step.repeat_set.contexts[k].seed, results::repeat_seed(11, k + 1));
      EXPECT_EQ(r.analysis.state, procedures::StepState::steady) << i << "/" << k;
      // The ramp's first run starts at once; every other run after the cooldown.
      EXPECT_DOUBLE_EQ(r.analysis.window.from_s, (i == 0 && k == 0 ? 0.0 : 1.0) + 1.0);
    }
    // Different seeds, different samples: the repeats' p99s differ, and the step is the middle one.
    const auto p99 = [&](std::size_t k) { return step.repeats[k].analysis.latency[2].value; };
    EXPECT_FALSE(p99(0) == p99(1) && p99(1) == p99(2));
    EXPECT_EQ(step.judged_on, procedures::median_repeat(step.repeats));
    EXPECT_EQ(step.analysis.latency[2].value, p99(step.judged_on));
    EXPECT_GE(step.analysis.latency[2].value, std::min({p99(0), p99(1), p99(2)}));
    EXPECT_LE(step.analysis.latency[2].value, std::max({p99(0), p99(1), p99(2)}));
    ASSERT_EQ(step.spreads.size(), 4U);
    std::printf("step %zu: %s\n", i + 1, procedures::repeats_line(step).c_str());
  }
  // Deterministic: the same ramp again writes the same steps.
  std::atomic<int> again_stop{0};
  auto again = procedures::run_ramp(base_plan(), two_steps(lab), again_stop, {});
  ASSERT_TRUE(again) << again.error().message;
  const nlohmann::json j = procedures::ramp_to_json(*out, s);
  EXPECT_EQ(j["steps"], procedures::ramp_to_json(*again, s)["steps"]);
  EXPECT_EQ(j["settings"]["repeat"], 3);
  ASSERT_EQ(j["steps"][1]["repeats"].size(), 3U);
  // Read back, every repeat is judged again on its window and the step made as the ramp made it.
  auto read = procedures::ramp_from_json(j, "test");
  ASSERT_TRUE(read) << read.error().message;
  ASSERT_EQ(read->outcome.steps.size(), 2U);
  for (std::size_t i = 0; i < 2; ++i) {
    const procedures::StepRecord& a = out->steps[i];
    const procedures::StepRecord& b = read->outcome.steps[i];
    EXPECT_EQ(b.repeats.size(), 3U);
    EXPECT_EQ(b.judged_on, a.judged_on);
    EXPECT_EQ(b.disagreement, a.disagreement);
    EXPECT_EQ(b.repeat_set.contexts[2].seed, a.repeat_set.contexts[2].seed);
    EXPECT_EQ(procedures::repeats_line(b), procedures::repeats_line(a));
  }
  EXPECT_NE(procedures::render_ramp_summary(read->outcome, read->settings).find("Repeats (each step judged"),
            std::string::npos);
  EXPECT_NE(procedures::render_ramp_html(read->outcome, read->settings, "test").find("<h2>Repeats</h2>"),
            std::string::npos);
}

TEST(RampRepeatsSim, ASignalAfterARepeatKeepsTheRepeatsThatRan) {
  const lab::LabConfig lab = lab_of("--workers 1 --service exp:2ms --seed 5");
  // The signal comes as the fourth run (step 2's first repeat) ends: that repeat was measured whole.
  const procedures::RampSettings s = two_steps(lab, [](int run, std::atomic<int>& stop) {
    if (run == 4) stop.store(1);
  });
  std::atomic<int> stop{0};
  auto out = procedures::run_ramp(base_plan(), s, stop, {});
  ASSERT_TRUE(out) << out.error().message;
  EXPECT_TRUE(out->interrupted);
  ASSERT_EQ(out->runs.size(), 4U);
  ASSERT_EQ(out->steps.size(), 2U);
  EXPECT_EQ(out->steps[0].repeats.size(), 3U);
  ASSERT_EQ(out->steps[1].repeats.size(), 1U);
  EXPECT_EQ(out->steps[1].repeat_set.planned, 3U);
  EXPECT_NE(procedures::repeats_line(out->steps[1]).find("1 of 3 repeats"), std::string::npos)
      << procedures::repeats_line(out->steps[1]);
}
