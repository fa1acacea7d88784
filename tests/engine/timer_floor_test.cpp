// The timer floor's summary and what --spin-below auto makes of it, on synthetic samples (no sleeping).
#include "engine/timer_floor.h"

#include <algorithm>

#include <gtest/gtest.h>

#include "results/recording/interval_stats.h"

using namespace openloop;
using namespace openloop::engine;
using namespace std::chrono_literals;

namespace {
RunPlan open_plan(double rate, unsigned threads) {
  RunPlan plan;
  plan.model = Model::open;
  plan.threads = threads;
  plan.duration = 1s;
  plan.profile = workload::RateProfile::constant(rate, plan.duration);
  return plan;
}

results::TimerFloor floor_with_p99(double p99_us) {
  results::TimerFloor f;
  f.samples = 1000;
  f.gap_us = 50;
  f.p50_us = 20;
  f.p99_us = p99_us;
  f.max_us = 2 * p99_us;
  return f;
}
}  // namespace

TEST(TimerFloor, SummarizesNearestRankPercentilesInMicroseconds) {
  std::vector<Nanos> lateness;
  for (int i = 1; i <= 200; ++i) lateness.push_back(Nanos(i * 1000));  // 1..200 µs, reversed below
  std::reverse(lateness.begin(), lateness.end());
  lateness.push_back(-5us);  // a wake-up before its deadline counts as on time
  const results::TimerFloor f = summarize_timer_floor(lateness, 50us);
  EXPECT_EQ(f.samples, 201U);
  EXPECT_DOUBLE_EQ(f.gap_us, 50);
  EXPECT_DOUBLE_EQ(f.p50_us, 100);  // rank ceil(100.5) = 101 of [0, 1, ..., 200] µs: 100 µs
  EXPECT_DOUBLE_EQ(f.p99_us, 198);  // rank ceil(198.99) = 199: the 199th smallest
  EXPECT_DOUBLE_EQ(f.max_us, 200);
}

TEST(TimerFloor, NoSamplesMeansNotMeasured) {
  std::vector<Nanos> none;
  EXPECT_EQ(summarize_timer_floor(none, 1ms).samples, 0U);
  EXPECT_EQ(auto_spin_lead(results::TimerFloor{}, 1ms), Nanos(0));
}

// A stall during the measurement (20 ms of 60 at 500-µs gaps: 80 waits) must not leave a p99 that is the
// stall alone: the measurement goes on until 100 waits (p99 then the second worst), within 150 ms.
TEST(TimerFloor, MeasuresOnPastAStallUntilItsP99IsNotTheWorstWakeUpAlone) {
  EXPECT_TRUE(timer_floor_measuring(0, 0ms));
  EXPECT_TRUE(timer_floor_measuring(80, 60ms));
  EXPECT_FALSE(timer_floor_measuring(120, 61ms));  // a quiet host's 120 waits: done at 60 ms, as before
  EXPECT_TRUE(timer_floor_measuring(80, 61ms));    // the stalled one goes on
  EXPECT_TRUE(timer_floor_measuring(99, 150ms));
  EXPECT_FALSE(timer_floor_measuring(100, 61ms));
  EXPECT_FALSE(timer_floor_measuring(40, 151ms));   // a host stalled throughout: bounded
  EXPECT_FALSE(timer_floor_measuring(1200, 10ms));  // small gaps: at most 1,200 waits
  std::vector<Nanos> lateness(99, 60us);
  lateness.push_back(20ms);
  EXPECT_DOUBLE_EQ(summarize_timer_floor(lateness, 500us).p99_us, 60);  // the stall is the max, not the p99
}

TEST(TimerFloor, CalibratesAtTheSmallestGapPerWorker) {
  EXPECT_EQ(calibration_gap({}), Nanos(1ms));  // nothing scheduled
  EXPECT_EQ(calibration_gap({open_plan(20000, 1)}), Nanos(50us));
  EXPECT_EQ(calibration_gap({open_plan(20000, 2), open_plan(100, 1)}), Nanos(100us));
  EXPECT_EQ(calibration_gap({open_plan(100, 1)}), Nanos(1ms));  // at most 1 ms
  RunPlan closed = open_plan(100000, 1);
  closed.model = Model::closed;
  EXPECT_EQ(calibration_gap({closed}), Nanos(1ms));
}

TEST(TimerFloor, TheBoundIsTheVerdictsAtThePlansRate) {
  EXPECT_EQ(planned_lateness_bound(open_plan(20000, 1)), Nanos(1ms));  // 10 % of 50 µs < 1 ms
  EXPECT_EQ(planned_lateness_bound(open_plan(10, 1)), Nanos(10ms));    // 10 % of 100 ms
  RunPlan plan = open_plan(20000, 1);
  plan.max_lateness = 5ms;
  EXPECT_EQ(planned_lateness_bound(plan), Nanos(5ms));
}

TEST(AutoSpinLead, NoneWhileTheFloorKeepsWithinHalfTheBound) {
  EXPECT_EQ(auto_spin_lead(floor_with_p99(500), 1ms), Nanos(0));
  EXPECT_EQ(auto_spin_lead(floor_with_p99(4000), 10ms), Nanos(0));
}

TEST(AutoSpinLead, SpinsThroughWhatAWakeUpOvershootsBeyondHalfTheBound) {
  // The host: p99 0.9 ms against a 1-ms bound → 1.5 × 900 − 500 = 850 µs.
  EXPECT_EQ(auto_spin_lead(floor_with_p99(900), 1ms), Nanos(850us));
  EXPECT_EQ(auto_spin_lead(floor_with_p99(100'000), 1ms), Nanos(10ms));  // capped
}

TEST(AdaptedSpinLead, FollowsTheLatenessTheRunMeetsAndNeverShrinks) {
  hdr::Histogram woke = results::make_latency_histogram();
  // Fewer than k_adapt_min_waits waits: too few to judge, the lead stays as it was.
  for (int i = 0; i < k_adapt_min_waits - 1; ++i) results::record_ns(woke, 2'000'000);
  EXPECT_EQ(adapted_spin_lead(woke, Nanos(0), 1ms), Nanos(0));
  // A run whose timed waits wake 50 µs late keeps the floor measured before it (no lead)...
  hdr::Histogram quiet = results::make_latency_histogram();
  for (int i = 0; i < 1000; ++i) results::record_ns(quiet, 50'000);
  EXPECT_EQ(adapted_spin_lead(quiet, Nanos(0), 1ms), Nanos(0));
  // ...and one whose waits woke 1.5 ms late in 2 % of them takes the lead auto_spin_lead gives that p99:
  // 1.5 × 1500 − 500 = 1750 µs (within the histogram's precision).
  for (int i = 0; i < 20; ++i) results::record_ns(quiet, 1'500'000);
  const Nanos lead = adapted_spin_lead(quiet, Nanos(0), 1ms);
  EXPECT_NEAR(to_seconds(lead) * 1e6, 1750, 5);
  // Never below the lead it had: a better stretch does not make it sleep into the next late wake-up.
  EXPECT_EQ(adapted_spin_lead(quiet, 5ms, 1ms), Nanos(5ms));
  // A bound the floor keeps within half of: none.
  EXPECT_EQ(adapted_spin_lead(quiet, Nanos(0), 10ms), Nanos(0));
}

// The stop-46 cases, with the busy shares measured then: spinning is taken where it fits beside the loop's
// own work and refused where it would take the CPU the loop needs.
TEST(SpinLeadFits, SpinsOnlyWhereTheLoopAndTheSpinningFitInTheCore) {
  // 20,000/s on one thread, the loop 60 % busy: a 300-µs lead spins through every 50-µs gap, as much as the
  // budget of half a core lets it: 1.1 of a core. Refused.
  EXPECT_FALSE(spin_lead_fits(300us, 0.60, 20000, 0.5));
  // 33,500/s, 57 % busy (the 50 % row of bench/h2_vs_h2load.sh): refused likewise.
  EXPECT_FALSE(spin_lead_fits(300us, 0.57, 33500, 0.5));
  // 10,000/s on a loaded host, 35 % busy: half a core of spinning fits (0.85).
  EXPECT_TRUE(spin_lead_fits(300us, 0.35, 10000, 0.5));
  // 100/s, the loop nearly idle: a 7-ms lead spins at most the budget's 25 %.
  EXPECT_TRUE(spin_lead_fits(7ms, 0.01, 100, 0.25));
  // A short lead costs only what it spins: 20 µs before each of 20,000 waits a second is 0.4 of a core.
  EXPECT_TRUE(spin_lead_fits(20us, 0.45, 20000, 0.5));
  EXPECT_FALSE(spin_lead_fits(20us, 0.55, 20000, 0.5));
  // No schedule (a closed loop's think timers): the budget is what it could spin.
  EXPECT_TRUE(spin_lead_fits(1ms, 0.39, 0, 0.5));
  EXPECT_FALSE(spin_lead_fits(1ms, 0.41, 0, 0.5));
  // No lead costs nothing, whatever the loop's load.
  EXPECT_TRUE(spin_lead_fits(Nanos(0), 0.99, 50000, 0.5));
}

TEST(WorkerPeakRate, IsTheShardsPeakOverItsThreads) {
  EXPECT_DOUBLE_EQ(worker_peak_rate(open_plan(20000, 4)), 5000);
  RunPlan closed = open_plan(20000, 1);
  closed.model = Model::closed;
  EXPECT_DOUBLE_EQ(worker_peak_rate(closed), 0);
}

namespace {
// Sets OPENLOOP_TIMER_FLOOR_US for one test and restores its absence after.
struct GivenFloor {
  explicit GivenFloor(const char* value) { setenv("OPENLOOP_TIMER_FLOOR_US", value, 1); }
  ~GivenFloor() { unsetenv("OPENLOOP_TIMER_FLOOR_US"); }
  GivenFloor(const GivenFloor&) = delete;
  GivenFloor& operator=(const GivenFloor&) = delete;
};
}  // namespace

TEST(HostTimerFloor, TakesTheFloorTheEnvironmentGivesInsteadOfMeasuring) {
  const GivenFloor given("5000");
  const results::TimerFloor f = host_timer_floor(20us);
  EXPECT_EQ(f.samples, 1U);
  EXPECT_DOUBLE_EQ(f.p50_us, 5000);
  EXPECT_DOUBLE_EQ(f.p99_us, 5000);
  EXPECT_DOUBLE_EQ(f.max_us, 5000);
  EXPECT_DOUBLE_EQ(f.gap_us, 50);  // the gap it would have measured at (clamped)
}

TEST(HostTimerFloor, MeasuresWhenTheGivenFloorIsNotANumberOfMicroseconds) {
  for (const char* bad : {"5ms", "-1", "2e6", "fast"}) {
    const GivenFloor given(bad);
    const results::TimerFloor f = host_timer_floor(500us);
    // Measured: many samples (1 only if the given value had been taken), or none when no loop could be created.
    EXPECT_NE(f.samples, 1U) << bad;
  }
}
