// A ramp step's repeats on hand-made data: which repeat the step is judged on, the spread across them (the
// results code `run --repeat` uses), the variation flag, and a disagreement on the verdict said.
#include <gtest/gtest.h>

#include "procedures/ramp/ramp_repeats.h"
#include "procedures/ramp/ramp_report.h"
#include "procedures/ramp/ramp_runner.h"
#include "ramp_test_util.h"

using namespace openloop;
using namespace openloop::procedures;
using namespace ramp_test;
using namespace std::chrono_literals;

namespace {

RampSettings settings(const char* slo) {
  RampSettings s;
  s.step.timeout = 1s;
  s.slos = {*results::parse_slo(slo, "--slo")};
  return s;
}

// One repeat of a step at 200/s: 10 steady seconds whose responses take `rt_ms` (plus `jitter_ms` on every
// other second, so its within-run interval has a width), judged as the ramp judges a step.
StepRecord repeat_of(double rt_ms, const RampSettings& s, double jitter_ms = 0) {
  std::vector<IntervalSpec> seconds = steady(0, 10, 200, static_cast<std::int64_t>(rt_ms * 1e6));
  for (std::size_t i = 1; i < seconds.size(); i += 2)
    seconds[i].rt_ns = static_cast<std::int64_t>((rt_ms + jitter_ms) * 1e6);
  const results::RunResults run = run_of(seconds);
  StepWindow w;
  w.offered_rps = 200;
  w.from_s = 0;
  w.to_s = 10;
  auto step = judge_step(run, w, s, 4, false);
  EXPECT_TRUE(step) << step.error().message;
  return *step;
}

results::RepeatSet set_of(std::size_t planned) {
  results::RepeatSet set;
  set.planned = planned;
  set.cooldown_s = 1;
  for (std::size_t k = 1; k <= planned; ++k) {
    results::RepeatContext c;
    c.seed = results::repeat_seed(7, k);
    set.contexts.push_back(c);
  }
  return set;
}

}  // namespace

TEST(RampRepeats, TheStepIsJudgedOnTheUpperMedianRepeatByP99) {
  const RampSettings s = settings("p99<=100ms");
  EXPECT_EQ(median_repeat({repeat_of(5, s), repeat_of(9, s), repeat_of(7, s)}), 2U);  // the middle of 3
  EXPECT_EQ(median_repeat({repeat_of(9, s), repeat_of(5, s)}), 0U);                   // the slower of 2
  EXPECT_EQ(median_repeat({repeat_of(5, s), repeat_of(6, s), repeat_of(8, s), repeat_of(7, s)}), 3U);
  // An INVALID repeat ranks above every valid one, whatever its p99.
  std::vector<StepRecord> with_invalid{repeat_of(1, s), repeat_of(6, s), repeat_of(7, s)};
  with_invalid[0].analysis.state = StepState::invalid;
  EXPECT_EQ(median_repeat(with_invalid), 2U);
  with_invalid[2].analysis.state = StepState::invalid;
  EXPECT_EQ(median_repeat(with_invalid), 0U);  // most are INVALID: so is the step
}

TEST(RampRepeats, RepeatsFarApartAreFlaggedAndTheirDisagreementSaid) {
  // Each repeat's own interval is a point (every response the same): none covers the others' median.
  const RampSettings s = settings("p99<=8ms");
  const StepRecord step = combine_repeats({repeat_of(5, s), repeat_of(9, s), repeat_of(7, s)}, set_of(3));
  ASSERT_EQ(step.repeats.size(), 3U);
  EXPECT_EQ(step.judged_on, 2U);
  EXPECT_EQ(step.number, 4U);
  // The step's own fields are the chosen repeat's.
  EXPECT_NEAR(static_cast<double>(step.analysis.latency[2].value) / 1e6, 7.0, 0.01);
  EXPECT_TRUE(step.passes());
  ASSERT_EQ(step.spreads.size(), 4U);
  const results::PercentileSpread& p99 = step.spreads[2];
  EXPECT_EQ(p99.percentile, 99.0);
  EXPECT_NEAR(p99.across.median / 1e6, 7.0, 0.01);
  EXPECT_NEAR(p99.across.min / 1e6, 5.0, 0.01);
  EXPECT_NEAR(p99.across.max / 1e6, 9.0, 0.01);
  EXPECT_TRUE(p99.judgement.judged);
  EXPECT_EQ(p99.judgement.covering, 0U);
  EXPECT_TRUE(results::variation_dominates(step.spreads));
  EXPECT_EQ(step.disagreement, "repeats disagree: #1 pass, #2 SLO not met, #3 pass");
  const std::string line = repeats_line(step);
  EXPECT_NE(line.find("3 of 3 repeats: p99 median 7ms, range 5ms – 9ms; judged on #3"), std::string::npos)
      << line;
  EXPECT_NE(line.find(results::k_variation_flag), std::string::npos) << line;
  EXPECT_NE(line.find("#2 SLO not met"), std::string::npos) << line;
  EXPECT_NE(step_line(step).find(line), std::string::npos);
}

TEST(RampRepeats, RepeatsThatAgreeAreNotFlagged) {
  const RampSettings s = settings("p99<=100ms");
  // Four repeats alike (half the responses at 5 ms, half at 10 ms): every interval covers the others' median.
  const StepRecord step = combine_repeats(
      {repeat_of(5, s, 5), repeat_of(5, s, 5), repeat_of(5, s, 5), repeat_of(5, s, 5)}, set_of(4));
  EXPECT_TRUE(step.disagreement.empty()) << step.disagreement;
  for (std::size_t i = 0; i < 3; ++i) {  // p50, p90, p99
    const results::PercentileSpread& p = step.spreads[i];
    EXPECT_TRUE(p.judgement.judged) << p.percentile << ": " << p.judgement.why_not;
    EXPECT_EQ(p.judgement.covering, 4U) << p.percentile;
  }
  // 2,000 samples bound no p99.9 from above: not judged, and said so.
  EXPECT_FALSE(step.spreads[3].judgement.judged);
  EXPECT_NE(step.spreads[3].judgement.why_not.find("too few samples"), std::string::npos);
  EXPECT_FALSE(results::variation_dominates(step.spreads));
  EXPECT_EQ(repeats_line(step).find(results::k_variation_flag), std::string::npos) << repeats_line(step);
  EXPECT_EQ(repeats_line(step).find("disagree"), std::string::npos) << repeats_line(step);
}

TEST(RampRepeats, TheJsonKeepsEveryRepeatAndTheSpread) {
  const RampSettings s = settings("p99<=8ms");
  RampOutcome o;
  o.steps.push_back(combine_repeats({repeat_of(5, s), repeat_of(9, s)}, set_of(3)));
  o.findings = analyse_ramp(o.steps);
  const nlohmann::json j = ramp_to_json(o, s)["steps"][0];
  ASSERT_EQ(j["repeats"].size(), 2U);
  EXPECT_EQ(j["repeats"][0]["repeat"], 1);
  EXPECT_EQ(j["repeats"][1]["seed"], results::repeat_seed(7, 2));
  EXPECT_EQ(j["repeats"][1]["state"], "STEADY");
  EXPECT_EQ(j["repeats"][1]["passes"], false);
  EXPECT_NEAR(j["repeats"][0]["response_time_ms"]["p99"]["value"].get<double>(), 5.0, 0.01);
  // The step is the slower repeat (the upper median of 2), and says the two disagree.
  EXPECT_EQ(j["repeat_summary"]["judged_on"], 2);
  EXPECT_EQ(j["passes"], false);
  EXPECT_EQ(j["repeat_summary"]["planned"], 3);
  EXPECT_EQ(j["repeat_summary"]["completed"], 2);
  EXPECT_EQ(j["repeat_summary"]["disagree"], "repeats disagree: #1 pass, #2 SLO not met");
  EXPECT_NEAR(j["repeat_summary"]["response_time"]["p99"]["max_ms"].get<double>(), 9.0, 0.01);
  EXPECT_FALSE(j["repeat_summary"]["response_time"]["p99"]["within_run"]["judged"].get<bool>());
}
