// `probe metastable --simulate` (sim::simulate_probe): the probe's outcomes and lab triggers on virtual time,
// the scenarios of tests/e2e/probe/*, each in a fraction of a second.
#include "sim/probe.h"

#include <gtest/gtest.h>

#include "procedures/probe/probe_trigger.h"
#include "sim_plans.h"

using namespace openloop;
using namespace openloop::sim::testing;
using namespace std::chrono_literals;
using procedures::ProbeVerdict;

namespace {

struct Probe {
  procedures::ProbePlan plan;
  engine::RunPlan run_plan;
};

/// The probe `openloop probe metastable --base BASE/s --trigger TRIGGER ...` builds: its plan, and the
/// staircase as one open-model run with constant arrivals.
Probe probe_of(double base, const char* trigger, Nanos trigger_for, Nanos baseline, Nanos observe,
               Nanos window, Nanos timeout, unsigned descend = 0, double descend_step = 0.1,
               Nanos descend_for = Nanos(0)) {
  procedures::ProbeSettings s;
  s.base_rate = base;
  s.trigger = *procedures::parse_trigger(trigger);
  s.trigger_for = trigger_for;
  s.baseline = baseline;
  s.observe = observe;
  s.window = window;
  s.warmup = 1s;
  s.descend = descend;
  s.descend_step = descend_step;
  s.descend_for = descend_for;
  auto plan = procedures::make_probe_plan(s);
  EXPECT_TRUE(plan) << plan.error().message;
  Probe p{*plan, open_plan(base, Nanos(0), 1s, workload::ArrivalKind::constant)};
  p.run_plan.profile = *workload::RateProfile::parse_stages(p.plan.stages_text(), "--stages");
  p.run_plan.duration = p.run_plan.profile.duration() - p.run_plan.warmup;
  p.run_plan.timeout = timeout;
  return p;
}

procedures::ProbeRun probe(const Probe& p, const std::string& lab) {
  std::atomic<int> stop{0};
  procedures::ProbeContext ctx;
  auto run = sim::simulate_probe(p.run_plan, p.plan, ctx, lab_of(lab), stop);
  EXPECT_TRUE(run) << run.error().message;
  return run ? std::move(*run) : procedures::ProbeRun{};
}

const procedures::PhaseRow& phase(const procedures::ProbeRun& r, std::size_t i) {
  return r.outcome.phases.at(i);
}

}  // namespace

// tests/e2e/probe/recovers_lifo_test.sh: capacity 40/s, a spike at 3× it, at most 20 wait and the rest are
// shed.
TEST(SimulatedProbe, BoundedLifoWithSheddingRecovers) {
  const auto r = probe(probe_of(20, "load:120/s", 3s, 4s, 8s, 3s, 2s),
                       "--workers 1 --service 25ms --queue lifo --queue-limit 50 --shed-at 20");
  EXPECT_EQ(r.outcome.verdict, ProbeVerdict::recovered) << r.outcome.sentence;
  ASSERT_TRUE(r.outcome.recovery_s);
  EXPECT_LE(*r.outcome.recovery_s, 3.0);
  ASSERT_EQ(r.outcome.phases.size(), 3U);
  EXPECT_LT(phase(r, 1).stats.goodput, 60.0) << "the spike was past capacity";
  EXPECT_GT(phase(r, 1).stats.not_ok_fraction, 0.3) << "the spike was shed";
  EXPECT_GE(r.results.intervals.size(), 15U) << "the run's intervals cover every phase";
  EXPECT_FALSE(r.lab.empty()) << "the simulated lab is sampled every second";
  EXPECT_TRUE(r.lab_actions.empty()) << "a load trigger changes nothing in the lab";
}

// tests/e2e/probe/metastable_fifo_test.sh: an unbounded FIFO queue and a client that waits 30 s keep the
// spike's backlog through a short observe phase.
TEST(SimulatedProbe, UnboundedFifoIsMetastableSustainedByTheBacklog) {
  const auto r = probe(probe_of(20, "load:120/s", 3s, 4s, 6s, 3s, 30s), "--workers 1 --service 25ms");
  EXPECT_EQ(r.outcome.verdict, ProbeVerdict::metastable) << r.outcome.sentence;
  ASSERT_FALSE(r.outcome.signals.empty());
  EXPECT_NE(r.outcome.signals.front().name.find("backlog"), std::string::npos)
      << r.outcome.signals.front().name;
  EXPECT_GT(phase(r, 2).stats.in_flight, 10.0);
  ASSERT_TRUE(phase(r, 2).lab_queue_max);
  EXPECT_GT(*phase(r, 2).lab_queue_max, 50U) << "the lab's own queue during observe";
  EXPECT_FALSE(r.outcome.recovery_s);
}

// tests/e2e/probe/inconclusive_test.sh: a base load above capacity has no steady baseline.
TEST(SimulatedProbe, BaseAboveCapacityIsInconclusive) {
  const auto r = probe(probe_of(60, "load:120/s", 2s, 4s, 3s, 3s, 2s), "--workers 1 --service 25ms");
  EXPECT_EQ(r.outcome.verdict, ProbeVerdict::inconclusive) << r.outcome.sentence;
  EXPECT_FALSE(r.outcome.baseline.steady);
  EXPECT_NE(r.outcome.sentence.find("baseline was not steady"), std::string::npos) << r.outcome.sentence;
}

// tests/e2e/probe/hysteresis_test.sh: the FIFO backlog drains at the base load too slowly, at 20 % of it
// fast.
TEST(SimulatedProbe, FifoBacklogRecoversOnlyAtALowerLoad) {
  const auto r =
      probe(probe_of(36, "load:120/s", 3s, 4s, 6s, 3s, 30s, 1, 0.8, 12s), "--workers 4 --service 100ms");
  EXPECT_EQ(r.outcome.verdict, ProbeVerdict::recovered_at_lower_load) << r.outcome.sentence;
  ASSERT_TRUE(r.outcome.recovered_rate);
  EXPECT_NEAR(*r.outcome.recovered_rate, 7.2, 0.5) << "36 × (1 − 0.8)";
}

// tests/e2e/probe/lab_triggers_test.sh: the stall is the real probe's change to the lab's stall list, applied
// to the simulated service at the trigger's instant, and restored at the run's end.
TEST(SimulatedProbe, StallTriggerFreezesTheServiceAtTheTriggersInstant) {
  const auto r = probe(probe_of(20, "stall:2s", 2s, 3s, 5s, 2s, 2s),
                       "--workers 2 --service 10ms --queue lifo --queue-limit 50 --shed-at 20");
  EXPECT_EQ(r.outcome.verdict, ProbeVerdict::recovered) << r.outcome.sentence;
  ASSERT_EQ(r.lab_actions.size(), 2U);
  // Lab uptime at the trigger: 1 s of warm-up + 3 s of baseline.
  EXPECT_EQ(r.lab_actions[0], R"(simulated at 3.000s {"stall-at":["4000000000ns+2000000000ns"]})");
  EXPECT_EQ(r.lab_actions[1], R"(simulated at the run's end {"stall-at":[]})");
  EXPECT_GE(ms(phase(r, 1).stats.p99_ns), 1000.0) << "the stall shows in the trigger's p99";
  EXPECT_LT(ms(phase(r, 0).stats.p99_ns), 20.0) << "and not before it";
  bool frozen_in_trigger = false, frozen_elsewhere = false;
  for (const auto& s : r.lab) (s.t_s >= 3 && s.t_s < 5 ? frozen_in_trigger : frozen_elsewhere) |= s.frozen;
  EXPECT_TRUE(frozen_in_trigger);
  EXPECT_FALSE(frozen_elsewhere);
}

TEST(SimulatedProbe, DependencyTriggerIsRaisedForItsPhaseAndRestored) {
  const auto r = probe(probe_of(20, "dependency:+100ms", 2s, 3s, 5s, 2s, 2s),
                       "--workers 2 --service 10ms --dependency 5ms");
  ASSERT_EQ(r.lab_actions.size(), 2U);
  EXPECT_EQ(r.lab_actions[0], R"(simulated at 3.000s {"dependency":"105ms"})");
  EXPECT_EQ(r.lab_actions[1], R"(simulated at 5.000s {"dependency":"5ms"})");
  EXPECT_GE(ms(phase(r, 1).stats.p50_ns), 100.0) << "the slower dependency shows during the trigger";
  EXPECT_LT(ms(phase(r, 0).stats.p50_ns), 20.0);
  EXPECT_EQ(r.outcome.verdict, ProbeVerdict::recovered) << r.outcome.sentence;
}

TEST(SimulatedProbe, DeterministicForASeed) {
  const Probe p = probe_of(20, "load:120/s", 3s, 4s, 6s, 3s, 30s);
  const auto a = probe(p, "--workers 1 --service exp:25ms");
  const auto b = probe(p, "--workers 1 --service exp:25ms");
  EXPECT_EQ(a.outcome.sentence, b.outcome.sentence);
  EXPECT_EQ(a.results.totals.completed, b.results.totals.completed);
  EXPECT_EQ(a.lab.size(), b.lab.size());
}
