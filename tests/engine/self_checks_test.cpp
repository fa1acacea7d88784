// The run's self-checks on synthetic stamps: a perfect generator passes for every way lanes split the
// schedule, a coalescing one fails and says how, and correlated response times widen the intervals.
#include "engine/self_checks.h"

#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "core/rng.h"
#include "engine/run_plan.h"
#include "hdr/histogram.h"
#include "workload/arrival_schedule.h"

using namespace openloop;
using namespace openloop::engine;
using namespace std::chrono_literals;

namespace {
RunPlan open_plan(workload::ArrivalKind kind, double rate, unsigned threads, Nanos duration) {
  RunPlan plan;
  plan.model = Model::open;
  plan.arrival = kind;
  plan.threads = threads;
  plan.duration = duration;
  plan.seed = 7;
  plan.profile = workload::RateProfile::constant(rate, duration);
  return plan;
}

// Worker `w`'s lane as the schedule plans it, issued `late(intended)` (identity: a perfect generator).
template <typename Late>
std::vector<ArrivalStamp> lane(const RunPlan& plan, unsigned w, Late late) {
  workload::ArrivalSchedule s(plan.profile, plan.arrival, plan.seed, plan.shard, w, plan.threads);
  std::vector<ArrivalStamp> out;
  while (auto t = s.next()) out.push_back({*t, late(*t)});
  return out;
}
Nanos on_time(Nanos t) {
  return t;
}
// A generator that wakes only every 5 ms and then issues everything due (coalescing far beyond the gap).
Nanos every_5ms(Nanos t) {
  return Nanos((t.count() / 5'000'000 + 1) * 5'000'000);
}

const SelfCheckSettings k_settings{1e6, false};
}  // namespace

TEST(SelfChecks, APerfectGeneratorPassesForStripedThinnedAndConstantLanes) {
  // Striped (the default): with 3 threads each lane's gaps are Erlang(3) in Λ.
  RunPlan striped = open_plan(workload::ArrivalKind::poisson, 3000, 3, 4s);
  for (unsigned w = 0; w < 3; ++w) {
    const auto l = check_lane(striped, w, lane(striped, w, on_time), k_settings);
    EXPECT_TRUE(l.passed) << "worker " << w << " A² " << l.statistic;
    EXPECT_EQ(l.test, "anderson-darling");
    EXPECT_EQ(l.tested, 2000u);
    EXPECT_FALSE(l.own_rate_statistic);  // Erlang(3) gaps: no own-rate exponential test
  }
  RunPlan thin = open_plan(workload::ArrivalKind::poisson, 2000, 2, 4s);
  thin.shard.poisson_split = workload::PoissonSplit::thin;
  for (unsigned w = 0; w < 2; ++w) {
    const auto l = check_lane(thin, w, lane(thin, w, on_time), k_settings);
    EXPECT_TRUE(l.passed) << "worker " << w << " A² " << l.statistic;
    ASSERT_TRUE(l.own_rate_statistic);
    EXPECT_LE(*l.own_rate_statistic, *l.own_rate_critical);
  }
  RunPlan constant = open_plan(workload::ArrivalKind::constant, 1000, 2, 2s);
  const auto c = check_lane(constant, 1, lane(constant, 1, on_time), k_settings);
  EXPECT_TRUE(c.passed);
  EXPECT_EQ(c.test, "dispersion");
  EXPECT_EQ(c.statistic, 0.0);
  EXPECT_EQ(c.bunched, 0.0);
}

// A staged profile is tested through Λ: a perfect generator passes across a 10× rate step and a ramp.
TEST(SelfChecks, StagedProfilesAreTestedThroughTheCumulativeRate) {
  RunPlan plan = open_plan(workload::ArrivalKind::poisson, 100, 1, 6s);
  plan.profile = *workload::RateProfile::parse_stages("2s:200/s,2s:2000/s,2s:2000/s", "--stages", 100);
  const auto l = check_lane(plan, 0, lane(plan, 0, on_time), k_settings);
  EXPECT_TRUE(l.passed) << "A² " << l.statistic;
}

TEST(SelfChecks, CoalescedSendsFailAsBunched) {
  RunPlan poisson = open_plan(workload::ArrivalKind::poisson, 2000, 1, 4s);
  const auto p = check_lane(poisson, 0, lane(poisson, 0, every_5ms), k_settings);
  EXPECT_FALSE(p.passed);
  EXPECT_GT(p.statistic, 10 * p.critical);
  EXPECT_GT(p.bunched, 0.8);  // ten arrivals per 5 ms wake-up: nine of ten gaps are 0
  EXPECT_NEAR(p.planned_bunched, 1 - std::exp(-0.1), 0.01);
  // A generous lateness bound (--max-lateness 1s) does not blind it: the resolution stays at most 100 µs.
  EXPECT_FALSE(check_lane(poisson, 0, lane(poisson, 0, every_5ms), SelfCheckSettings{1e9, false}).passed);
  RunPlan constant = open_plan(workload::ArrivalKind::constant, 2000, 1, 2s);
  const auto c = check_lane(constant, 0, lane(constant, 0, every_5ms), k_settings);
  EXPECT_FALSE(c.passed);
  EXPECT_GT(c.bunched, 0.8);
  results::ArrivalCheck check;
  check.tested = true;
  check.process = "poisson";
  check.level = "1 %";
  check.lanes = {p};
  const std::string sentence = check.failure();
  EXPECT_NE(sentence.find("sends bunched: "), std::string::npos) << sentence;
  EXPECT_NE(sentence.find("where the plan has 9.5 %"), std::string::npos) << sentence;
  EXPECT_NE(sentence.find("> 3.86 at 1 %"), std::string::npos) << sentence;
}

// One stall in a short, slow run (30/s for 2 s: the 5 arrivals of a 150-ms stall sent at its end) bunches 4 of 59
// gaps, 6.8 %: too few gaps to call the process bunched (the lateness check judges the stall); the same stall once a
// second over 20 s (40 bunched gaps) is a pattern and fails.
TEST(SelfChecks, AFewBunchedGapsAreNotAPattern) {
  const auto stalled = [](Nanos t) {
    const std::int64_t into = t.count() % 1'000'000'000;
    return into >= 500'000'000 && into < 650'000'000 ? t + Nanos(650'000'000 - into) : t;
  };
  RunPlan short_run = open_plan(workload::ArrivalKind::constant, 30, 1, 2s);
  auto s = lane(short_run, 0, stalled);
  for (auto& stamp : s) {  // only the first second stalls
    if (stamp.intended >= 1s) stamp.issued = stamp.intended;
  }
  const auto once = check_lane(short_run, 0, s, k_settings);
  EXPECT_GT(once.bunched, 0.05);
  EXPECT_TRUE(once.passed) << "bunched " << once.bunched;
  RunPlan long_run = open_plan(workload::ArrivalKind::constant, 30, 1, 20s);
  const auto every_second = check_lane(long_run, 0, lane(long_run, 0, stalled), k_settings);
  EXPECT_FALSE(every_second.passed) << "bunched " << every_second.bunched;
}

// Ordinary jitter (uniform 0–20 µs late, well under 1 % of the lateness bound apart) and sends issued in the
// same loop round pass: the check judges at the run's own timing resolution.
TEST(SelfChecks, JitterBelowTheResolutionPasses) {
  RunPlan plan = open_plan(workload::ArrivalKind::poisson, 5000, 1, 2s);
  Rng rng(3);
  const auto jittery = [&rng](Nanos t) {
    return t + Nanos(static_cast<std::int64_t>(rng.uniform01() * 20'000));
  };
  const auto l = check_lane(plan, 0, lane(plan, 0, jittery), SelfCheckSettings{1e6, false});
  EXPECT_TRUE(l.passed) << "A² " << l.statistic;
}

TEST(SelfChecks, CorrelatedResponseTimesWidenTheIntervals) {
  const auto run = [](double phi) {
    Rng rng(5);
    hdr::Histogram h(1, 3'600'000'000'000, 3);
    std::vector<LatencyStamp> stamps;
    double v = 0;
    for (int i = 0; i < 20000; ++i) {
      // AR(1) in log-latency around 1 ms: φ = 0 independent, φ = 0.95 a queue that remembers.
      const double z =
          std::sqrt(-2 * std::log(rng.uniform_open0())) * std::cos(6.283185307179586 * rng.uniform01());
      v = phi * v + std::sqrt(1 - phi * phi) * z;
      const auto ns = static_cast<std::int64_t>(1e6 * std::exp(0.3 * v));
      h.record(ns);
      stamps.push_back({Nanos(i * 1'000'000LL), ns});
    }
    results::RunChecks out;
    check_latencies(stamps, h, out);
    return out;
  };
  const results::RunChecks iid = run(0.0), queued = run(0.95);
  EXPECT_FALSE(iid.independence.correlated());
  EXPECT_TRUE(queued.independence.correlated());
  EXPECT_GT(queued.independence.vanish_lag, 10u);
  ASSERT_EQ(iid.response_time.size(), 4u);
  const auto& a = iid.response_time[2];
  const auto& b = queued.response_time[2];
  EXPECT_EQ(a.percentile, 99);
  // Independent: the interval is the naive one (within a rank or two of a bucket).
  EXPECT_LE(*a.relative_half_width(),
            1.1 * static_cast<double>(*a.naive_high - a.value) / static_cast<double>(a.value) + 0.01);
  // Correlated: wider than its own naive interval.
  EXPECT_GT(static_cast<double>(*b.high - *b.low), 2.0 * static_cast<double>(*b.naive_high - *b.naive_low));
  EXPECT_LT(b.effective_count, 0.25 * 20000);
}
