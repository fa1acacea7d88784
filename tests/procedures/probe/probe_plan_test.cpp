// The probe's trigger syntax, dependency arithmetic, phase layout and the staircase it runs as one profile.
#include <gtest/gtest.h>

#include "hdr/codec.h"
#include "procedures/probe/probe_plan.h"
#include "procedures/probe/probe_runner.h"
#include "results/judging/slo.h"
#include "workload/rate_profile.h"

namespace openloop::procedures {
namespace {

using namespace std::chrono_literals;

TEST(ProbeTrigger, ParsesLoadStallAndDependency) {
  const Trigger load = *parse_trigger("load:600/s");
  EXPECT_EQ(load.kind, Trigger::Kind::load);
  EXPECT_DOUBLE_EQ(load.rate, 600);
  EXPECT_FALSE(load.needs_lab());
  const Trigger stall = *parse_trigger("stall:10s");
  EXPECT_EQ(stall.kind, Trigger::Kind::stall);
  EXPECT_EQ(stall.length, 10s);
  EXPECT_TRUE(stall.needs_lab());
  EXPECT_EQ(parse_trigger("stall")->length, 0s);
  const Trigger raise = *parse_trigger("dependency:+500ms");
  EXPECT_TRUE(raise.relative);
  EXPECT_EQ(raise.dependency, 500ms);
  EXPECT_FALSE(parse_trigger("dependency:800ms")->relative);
}

TEST(ProbeTrigger, RefusesBadFormsNamingTheFlagAndTheForms) {
  for (const char* bad : {"load", "load:0/s", "load:fast", "stall:0s", "stall:x", "dependency",
                          "dependency:+0ms", "spike:600/s"}) {
    const auto t = parse_trigger(bad);
    ASSERT_FALSE(t) << bad;
    EXPECT_NE(t.error().message.find("--trigger"), std::string::npos) << t.error().message;
    EXPECT_NE(t.error().message.find("load:RATE"), std::string::npos) << t.error().message;
  }
}

TEST(ProbeTrigger, RaisesTheDependencyKeepingItsShape) {
  const Trigger raise = *parse_trigger("dependency:+500ms");
  EXPECT_EQ(*dependency_during("", raise), "500ms");
  EXPECT_EQ(*dependency_during("none", raise), "500ms");
  EXPECT_EQ(*dependency_during("20ms", raise), "520ms");
  EXPECT_EQ(*dependency_during("exp:10ms", raise), "exp:510ms");
  EXPECT_EQ(*dependency_during("uniform:10ms..20ms", raise), "uniform:510ms..520ms");
  EXPECT_EQ(*dependency_during("lognormal:10ms,0.5", raise), "lognormal:510ms,0.5");
  EXPECT_EQ(*dependency_during("20ms", *parse_trigger("dependency:800ms")), "800ms");
  EXPECT_FALSE(dependency_during("bogus", raise));
}

TEST(ProbeTrigger, AddsAStallToTheLabsOneOffStalls) {
  const auto list = stall_list_with(nlohmann::json::array({"1s+1s"}), 12345ms, 3s);
  ASSERT_EQ(list.size(), 2U);
  EXPECT_EQ(list[0], "1s+1s");
  EXPECT_EQ(list[1], "12345000000ns+3000000000ns");
  EXPECT_EQ(stall_list_with(nullptr, 0s, 1s).size(), 1U);
}

ProbeSettings settings() {
  ProbeSettings s;
  s.base_rate = 300;
  s.trigger = *parse_trigger("load:600/s");
  s.warmup = 5s;
  s.baseline = 20s;
  s.trigger_for = 10s;
  s.observe = 60s;
  s.window = 30s;
  return s;
}

TEST(ProbePlan, LaysOutThePhasesAndDescendingSteps) {
  ProbeSettings s = settings();
  s.descend = 2;
  const ProbePlan p = *make_probe_plan(s);
  ASSERT_EQ(p.phases.size(), 5U);
  EXPECT_EQ(p.phases[0].name(), "baseline");
  EXPECT_EQ(p.phases[1].name(), "trigger");
  EXPECT_DOUBLE_EQ(p.phases[1].rate, 600);
  EXPECT_EQ(p.phases[2].start, 30s);
  EXPECT_EQ(p.phases[3].name(), "descend 1");
  EXPECT_DOUBLE_EQ(p.phases[3].rate, 270);
  EXPECT_DOUBLE_EQ(p.phases[4].rate, 240);
  EXPECT_EQ(p.phases[4].length, 60s);  // 2 × window by default
  EXPECT_EQ(p.measured, 20s + 10s + 60s + 120s);
}

TEST(ProbePlan, StagesTextParsesBackToTheExactStaircase) {
  ProbeSettings s = settings();
  s.base_rate = 333;
  s.descend = 1;
  const ProbePlan p = *make_probe_plan(s);
  const auto profile = workload::RateProfile::parse_stages(p.stages_text(), "--stages");
  ASSERT_TRUE(profile) << profile.error().message;
  EXPECT_EQ(profile->duration(), s.warmup + p.measured);
  EXPECT_DOUBLE_EQ(profile->rate_at(0s), 333);
  for (const Phase& ph : p.phases) {
    EXPECT_DOUBLE_EQ(profile->rate_at(s.warmup + ph.start), ph.rate) << ph.name();
    EXPECT_DOUBLE_EQ(profile->rate_at(s.warmup + ph.end() - 1ms), ph.rate) << ph.name();
  }
  EXPECT_DOUBLE_EQ(p.phases.back().rate, 333 * 0.9);
}

TEST(ProbePlan, ANonLoadTriggerKeepsTheBaseRateAndAStallSetsItsLength) {
  ProbeSettings s = settings();
  s.trigger = *parse_trigger("stall:7s");
  const ProbePlan p = *make_probe_plan(s);
  EXPECT_DOUBLE_EQ(p.phases[1].rate, 300);
  EXPECT_EQ(p.phases[1].length, 7s);
}

TEST(ProbePlan, RefusesPlansThatCannotBeJudged) {
  const auto refused = [](ProbeSettings s, const std::string& flag) {
    const auto p = make_probe_plan(s);
    ASSERT_FALSE(p) << flag;
    EXPECT_NE(p.error().message.find(flag), std::string::npos) << p.error().message;
  };
  ProbeSettings s = settings();
  s.window = 90s;
  refused(s, "--window");
  s = settings();
  s.observe = 1500ms;
  refused(s, "--observe-for");
  s = settings();
  s.baseline = 1s;
  refused(s, "--baseline-for");
  s = settings();
  s.descend = 10;
  refused(s, "--descend-step");
  s = settings();
  s.base_rate = 0;
  refused(s, "--base");
  s = settings();
  s.descend = 1;
  s.descend_for = 10s;
  refused(s, "--descend-for");
}

TEST(ProbeRunner, PhaseResultsCutThePhaseOutOfTheRunForItsSlos) {
  results::RunResults r;
  r.info.request_names = {"GET /"};
  for (int i = 0; i < 6; ++i) {
    results::IntervalResult in;
    in.start_s = i;
    in.counters.intended = in.counters.sent = in.counters.completed = in.counters.ok = 100;
    hdr::Histogram h = results::make_latency_histogram();
    h.record(Nanos(i < 3 ? 2ms : 900ms).count(), 100);  // the last three seconds are slow
    in.response_time_hist = hdr::to_compressed_base64(h);
    r.intervals.push_back(in);
  }
  const auto base = phase_results(r, 0s, 3s);
  ASSERT_TRUE(base) << base.error().message;
  EXPECT_EQ(base->intervals.size(), 3U);
  EXPECT_EQ(base->totals.intended, 300U);
  EXPECT_DOUBLE_EQ(base->measured_s, 3.0);
  const auto slos = results::evaluate_slos({*results::parse_slo("p99<=5ms")}, *base);
  ASSERT_EQ(slos.size(), 1U);
  EXPECT_TRUE(slos[0].evaluated && slos[0].met) << slos[0].measured_text;
  const auto all = phase_results(r, 0s, 6s);
  EXPECT_FALSE(results::evaluate_slos({*results::parse_slo("p99<=5ms")}, *all)[0].met);
}

}  // namespace
}  // namespace openloop::procedures
