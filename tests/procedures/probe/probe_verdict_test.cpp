// The metastable probe's recovery-window search and verdicts, on constructed interval series (no runs, no
// sleeps).
#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "procedures/probe/probe_report.h"
#include "procedures/probe/probe_verdict.h"

namespace openloop::procedures {
namespace {

using namespace std::chrono_literals;

/// One second of intended requests: `ok` answered ok after `latency`, `timeouts` censored at 5 s, `bad`
/// answered an error status after `latency`.
Sample second(std::uint64_t ok, Nanos latency, std::uint64_t timeouts = 0, std::uint64_t bad = 0) {
  Sample s;
  s.counters.intended = ok + timeouts + bad;
  s.counters.sent = s.counters.intended;
  s.counters.completed = ok + bad;
  s.counters.ok = ok;
  s.counters.timeouts = timeouts;
  s.attempts = static_cast<double>(s.counters.intended);
  if (ok + bad > 0) s.response_time.record(latency.count(), static_cast<std::int64_t>(ok + bad));
  if (timeouts > 0) s.response_time.record(Nanos(5s).count(), static_cast<std::int64_t>(timeouts));
  return s;
}

/// A series built phase by phase; each call appends `seconds` intervals made by `make(i)` (i from 0).
struct Series {
  std::vector<Sample> samples;
  Series& add(int seconds, const std::function<Sample(int)>& make) {
    for (int i = 0; i < seconds; ++i) {
      Sample s = make(i);
      s.start_s = static_cast<double>(samples.size());
      samples.push_back(std::move(s));
    }
    return *this;
  }
};

ProbePlan plan(unsigned descend = 0, Nanos observe = 20s) {
  ProbeSettings s;
  s.base_rate = 100;
  s.trigger = *parse_trigger("load:300/s");
  s.warmup = 0s;
  s.baseline = 10s;
  s.trigger_for = 5s;
  s.observe = observe;
  s.window = 5s;
  s.descend = descend;
  s.descend_for = 10s;
  return *make_probe_plan(s);
}

const auto healthy = [](int) { return second(100, 1ms); };
const auto overloaded = [](int) { return second(40, 2s, 60); };

bool has_signal(const ProbeOutcome& o, const std::string& name) {
  for (const auto& s : o.signals) {
    if (s.name == name) return true;
  }
  return false;
}

TEST(ProbeVerdict, RecoversAtTheFirstWindowThatMeetsEveryCriterion) {
  Series x;
  x.add(10, healthy)
      .add(5, overloaded)
      .add(6, [](int i) { return second(100, Nanos(300ms) / (i + 1)); })
      .add(14, healthy);
  const ProbeOutcome o = classify(plan(), x.samples, {});
  EXPECT_EQ(o.verdict, ProbeVerdict::recovered) << o.sentence;
  ASSERT_TRUE(o.recovery_s);
  EXPECT_DOUBLE_EQ(*o.recovery_s,
                   6.0);  // the first all-healthy 5-s window starts 6 s after the trigger ended
  ASSERT_TRUE(o.healthy_window);
  EXPECT_DOUBLE_EQ(o.healthy_window->start_s, 21.0);
  EXPECT_DOUBLE_EQ(o.healthy_window->end_s, 26.0);
  EXPECT_NE(o.sentence.find("RECOVERED 6s after the trigger ended"), std::string::npos) << o.sentence;
}

TEST(ProbeVerdict, ImmediateRecoveryIsZeroSecondsAndAWeakTriggerIsNoted) {
  Series x;
  x.add(10, healthy).add(5, [](int) { return second(300, 1ms); }).add(20, healthy);
  const ProbeOutcome o = classify(plan(), x.samples, {});
  EXPECT_EQ(o.verdict, ProbeVerdict::recovered);
  EXPECT_DOUBLE_EQ(*o.recovery_s, 0.0);
  ASSERT_EQ(o.notes.size(), 1U);
  EXPECT_NE(o.notes[0].find("did not push the system"), std::string::npos);
}

TEST(ProbeVerdict, P99WithinTheAbsoluteSlackOfASubMillisecondBaselineCounts) {
  Series x;
  x.add(10, [](int) { return second(100, 200us); }).add(5, overloaded).add(20, [](int) {
    return second(100, 1100us);
  });
  EXPECT_EQ(classify(plan(), x.samples, {}).verdict, ProbeVerdict::recovered);
}

TEST(ProbeVerdict, GrowingBacklogIsMetastable) {
  Series x;
  // Response times keep rising at the base load: every arrival waits longer than the one before (in flight
  // grows).
  x.add(10, healthy).add(5, overloaded).add(20, [](int i) { return second(100, Nanos(500ms) * (i + 1)); });
  const ProbeOutcome o = classify(plan(), x.samples, {});
  EXPECT_EQ(o.verdict, ProbeVerdict::metastable) << o.sentence;
  ASSERT_FALSE(o.signals.empty());
  EXPECT_EQ(o.signals.front().name, "growing backlog") << o.sentence;
  EXPECT_NE(o.sentence.find("sustained by growing backlog"), std::string::npos) << o.sentence;
  ASSERT_TRUE(o.last_base_window);
  EXPECT_FALSE(o.last_base_window->met);
}

TEST(ProbeVerdict, DrainingBacklogIsPersistentWithAnEstimate) {
  Series x;
  x.add(10, healthy).add(5, overloaded).add(20, [](int i) {
    return second(100, Nanos(4s) - Nanos(150ms) * i);
  });
  const ProbeOutcome o = classify(plan(), x.samples, {});
  EXPECT_EQ(o.verdict, ProbeVerdict::metastable);
  ASSERT_TRUE(has_signal(o, "persistent backlog")) << o.sentence;
  EXPECT_NE(o.signals.front().text.find("draining"), std::string::npos) << o.signals.front().text;
}

TEST(ProbeVerdict, TimeoutsAndGoodputNearZeroWithThroughputAreNamed) {
  Series x;
  // After the trigger every request is answered quickly with an error status: throughput stays, goodput is
  // gone.
  x.add(10, healthy).add(5, overloaded).add(20, [](int) { return second(2, 2ms, 8, 90); });
  const ProbeOutcome o = classify(plan(), x.samples, {});
  EXPECT_EQ(o.verdict, ProbeVerdict::metastable);
  EXPECT_EQ(o.signals.front().name, "goodput ~0 with throughput ~capacity") << o.sentence;
  EXPECT_TRUE(has_signal(o, "timeouts"));
  EXPECT_TRUE(has_signal(o, "errors"));
}

TEST(ProbeVerdict, RetryAmplificationIsTheStrongestSignal) {
  Series x;
  // Every request times out and is tried three times: the retries triple the load at the base rate.
  x.add(10, healthy).add(5, overloaded).add(20, [](int i) {
    Sample s = second(10, Nanos(2s) + Nanos(100ms) * i, 90);
    s.attempts = 3.0 * static_cast<double>(s.counters.sent);
    return s;
  });
  const ProbeOutcome o = classify(plan(), x.samples, {});
  EXPECT_EQ(o.verdict, ProbeVerdict::metastable);
  ASSERT_FALSE(o.signals.empty());
  EXPECT_EQ(o.signals.front().name, "amplification") << o.sentence;
  EXPECT_NE(o.signals.front().text.find("3.00 attempts per request"), std::string::npos)
      << o.signals.front().text;
  EXPECT_FALSE(o.last_base_window->checks[3].met);
}

TEST(ProbeVerdict, RecoveringOnlyOnADescendingStepIsHysteresis) {
  Series x;
  x.add(10, healthy).add(5, overloaded).add(20, [](int) { return second(60, 3s, 40); });
  x.add(10, [](int) { return second(50, 3s, 40); });  // descend 1 at 90/s: still not recovered
  x.add(3, [](int) { return second(60, 2s, 20); }).add(7, [](int) {
    return second(80, 1ms);
  });  // descend 2 at 80/s
  const ProbeOutcome o = classify(plan(2), x.samples, {});
  EXPECT_EQ(o.verdict, ProbeVerdict::recovered_at_lower_load) << o.sentence;
  ASSERT_TRUE(o.recovered_rate);
  EXPECT_DOUBLE_EQ(*o.recovered_rate, 80.0);
  EXPECT_DOUBLE_EQ(*o.recovery_s, 20.0 + 10.0 + 3.0);
  EXPECT_NE(o.sentence.find("descend 2"), std::string::npos) << o.sentence;
}

TEST(ProbeVerdict, AWindowMustLieInsideOnePhase) {
  Series x;
  // Healthy for the last 3 s of observe and the first 2 s of the step: 5 healthy seconds, but across a
  // boundary.
  x.add(10, healthy).add(5, overloaded).add(17, overloaded).add(3, healthy);
  x.add(2, [](int) { return second(90, 1ms); }).add(8, [](int) { return second(20, 3s, 70); });
  const ProbeOutcome o = classify(plan(1), x.samples, {});
  EXPECT_EQ(o.verdict, ProbeVerdict::metastable) << o.sentence;
}

TEST(ProbeVerdict, UnsteadyBaselineIsInconclusive) {
  Series x;
  x.add(10, [](int i) { return second(i % 2 == 0 ? 100 : 60, 1ms, i % 2 == 0 ? 0 : 40); })
      .add(5, overloaded)
      .add(20, healthy);
  const ProbeOutcome o = classify(plan(), x.samples, {});
  EXPECT_EQ(o.verdict, ProbeVerdict::inconclusive);
  EXPECT_FALSE(o.baseline.steady);
  EXPECT_NE(o.sentence.find("baseline was not steady"), std::string::npos) << o.sentence;
}

TEST(ProbeVerdict, OneSlowRequestAmongFewIsNotAnUnsteadyBaseline) {
  Series x;
  // 3 s at 20/s: 30 requests per half, one of them slow (a scheduler hiccup): its "p99" is that one request.
  x.add(3, [](int i) {
    Sample s = second(20, 12ms);
    if (i == 2) s.response_time.record(Nanos(55ms).count());
    return s;
  });
  const BaselineJudgement b = judge_baseline(x.samples);
  EXPECT_TRUE(b.steady) << (b.problems.empty() ? "" : b.problems.front());
}

TEST(ProbeVerdict, OneSlowRequestInASmallWindowIsNotALatencyRegression) {
  // 8/s with 5-s windows: 40 requests a window, so the window's "p99" would be its slowest request. One 55-ms
  // hiccup two seconds into the observe phase must not delay the recovery; a whole window at 30 ms must.
  ProbeSettings s = plan().settings;
  s.base_rate = 8;
  s.trigger = *parse_trigger("load:24/s");
  const ProbePlan p = *make_probe_plan(s);
  const auto at = [](Nanos latency) { return [latency](int) { return second(8, latency); }; };
  Series x;
  x.add(10, at(12ms)).add(5, [](int) { return second(3, 2s, 5); }).add(20, [](int i) {
    Sample one = second(8, 12ms);
    if (i == 2) one.response_time.record(Nanos(55ms).count());
    return one;
  });
  const ProbeOutcome o = classify(p, x.samples, {});
  EXPECT_EQ(o.verdict, ProbeVerdict::recovered) << o.sentence;
  ASSERT_TRUE(o.recovery_s);
  EXPECT_DOUBLE_EQ(*o.recovery_s, 0.0) << o.sentence;
  ASSERT_TRUE(o.healthy_window);
  EXPECT_EQ(o.healthy_window->checks[1].name, "p50");

  Series slow;
  slow.add(10, at(12ms)).add(5, [](int) { return second(3, 2s, 5); }).add(20, at(30ms));
  const ProbeOutcome m = classify(p, slow.samples, {});
  EXPECT_EQ(m.verdict, ProbeVerdict::metastable) << m.sentence;
  EXPECT_TRUE(has_signal(m, "latency")) << m.sentence;
}

TEST(ProbeVerdict, BaselineWithAGrowingBacklogIsNotSteady) {
  Series x;
  x.add(10, [](int i) { return second(100, Nanos(100ms) * (i + 1) * (i + 1)); })
      .add(5, overloaded)
      .add(20, healthy);
  const ProbeOutcome o = classify(plan(), x.samples, {});
  EXPECT_EQ(o.verdict, ProbeVerdict::inconclusive);
  EXPECT_NE(o.sentence.find("in flight grew"), std::string::npos) << o.sentence;
}

TEST(ProbeVerdict, GeneratorProblemsInterruptionsAndBaselineSloMissesAreInconclusive) {
  Series x;
  x.add(10, healthy).add(5, overloaded).add(20, healthy);
  RunFacts invalid;
  invalid.valid = false;
  invalid.reasons = {"dropped 4.1% of intended requests (bound 1%)"};
  EXPECT_EQ(classify(plan(), x.samples, invalid).verdict, ProbeVerdict::inconclusive);

  RunFacts slo;
  slo.baseline_slo_failures = {"p99<=500us (measured 1ms)"};
  const ProbeOutcome o = classify(plan(), x.samples, slo);
  EXPECT_EQ(o.verdict, ProbeVerdict::inconclusive);
  EXPECT_NE(o.sentence.find("missed an SLO"), std::string::npos);

  Series cut;
  cut.add(10, healthy).add(5, overloaded).add(8, healthy);
  RunFacts interrupted;
  interrupted.interrupted = true;
  EXPECT_EQ(classify(plan(), cut.samples, interrupted).verdict, ProbeVerdict::inconclusive);
}

/// `s` with every request sent `late` after its intended time.
Sample late(Sample s, Nanos late) {
  s.send_lateness.record(late.count(), static_cast<std::int64_t>(s.counters.sent));
  return s;
}

TEST(ProbeVerdict, ALateGeneratorLeavesAClearFailureStandingWithANote) {
  Series x;
  x.add(10, [](int) { return late(second(100, 10ms), 5ms); }).add(5, overloaded);
  x.add(20, [](int) { return late(second(0, 0ns, 100), 5ms); });
  RunFacts facts;
  facts.timeout_s = 5;
  const ProbeOutcome o = classify(plan(), x.samples, facts);
  EXPECT_EQ(o.verdict, ProbeVerdict::metastable) << o.sentence;
  ASSERT_FALSE(o.notes.empty());
  EXPECT_NE(o.notes.back().find("unchanged if every response time shifts by up to ±5ms"), std::string::npos)
      << o.notes.back();
  EXPECT_NE(o.notes.back().find("during baseline"), std::string::npos) << o.notes.back();
}

TEST(ProbeVerdict, ALateGeneratorLeavesARecoveryWithMarginStandingWithANote) {
  // Baseline p99 100 ms (bound 110 ms), observe 90 ms: 2 ms of lateness (bound 1 ms at 100/s) cannot matter.
  Series x;
  x.add(10, [](int) { return late(second(100, 100ms), 2ms); }).add(5, overloaded);
  x.add(20, [](int) { return late(second(100, 90ms), 2ms); });
  RunFacts facts;
  facts.timeout_s = 5;
  const ProbeOutcome o = classify(plan(), x.samples, facts);
  EXPECT_EQ(o.verdict, ProbeVerdict::recovered) << o.sentence;
  ASSERT_TRUE(o.recovery_s);
  EXPECT_DOUBLE_EQ(*o.recovery_s, 0.0);
  ASSERT_FALSE(o.notes.empty());
  EXPECT_NE(o.notes.back().find("send-lateness p99 2ms > 1ms during observe"), std::string::npos)
      << o.notes.back();
  EXPECT_NE(o.notes.back().find("unchanged if every response time shifts by up to ±2ms"), std::string::npos)
      << o.notes.back();
}

TEST(ProbeVerdict, TheTriggersLatenessIsExempt) {
  Series x;
  x.add(10, healthy).add(5, [](int) { return late(second(40, 2s, 60), 300ms); }).add(20, healthy);
  RunFacts facts;
  facts.timeout_s = 5;
  const ProbeOutcome o = classify(plan(), x.samples, facts);
  EXPECT_EQ(o.verdict, ProbeVerdict::recovered) << o.sentence;
  for (const auto& n : o.notes) EXPECT_EQ(n.find("sent late"), std::string::npos) << n;
}

TEST(ProbeVerdict, LatenessThatCouldDecideTheVerdictMakesItInconclusive) {
  RunFacts facts;
  facts.timeout_s = 5;
  // Missed by 1 ms at p99 (bound 11 ms) while the generator was 5 ms late: it could be the generator's doing.
  Series missed;
  missed.add(10, [](int) { return second(100, 10ms); }).add(5, overloaded);
  missed.add(20, [](int) { return late(second(100, 12ms), 5ms); });
  ProbeOutcome o = classify(plan(), missed.samples, facts);
  EXPECT_EQ(o.verdict, ProbeVerdict::inconclusive) << o.sentence;
  EXPECT_NE(o.sentence.find("could have decided the verdict (send-lateness p99 5ms > 1ms during observe)"),
            std::string::npos)
      << o.sentence;
  EXPECT_NE(o.sentence.find("observe would have a healthy window"), std::string::npos) << o.sentence;
  EXPECT_NE(o.notes.back().find("METASTABLE"), std::string::npos);
  // Recovered with 0.1 ms to spare against a baseline the generator inflated by 5 ms.
  Series close;
  close.add(10, [](int) { return late(second(100, 10ms), 5ms); }).add(5, overloaded);
  close.add(20, [](int) { return second(100, 10900us); });
  o = classify(plan(), close.samples, facts);
  EXPECT_EQ(o.verdict, ProbeVerdict::inconclusive) << o.sentence;
  EXPECT_FALSE(o.recovery_s);
  // Lateness of 10 % of the timeout or more turns into timeouts: never trusted.
  Series slow;
  slow.add(10, [](int) { return late(second(100, 10ms), 600ms); }).add(5, overloaded);
  slow.add(20, [](int) { return late(second(0, 0ns, 100), 600ms); });
  o = classify(plan(), slow.samples, facts);
  EXPECT_EQ(o.verdict, ProbeVerdict::inconclusive) << o.sentence;
  EXPECT_NE(o.sentence.find("10% or more of the 5s timeout"), std::string::npos) << o.sentence;
  EXPECT_NE(o.sentence.find("during baseline"), std::string::npos) << o.sentence;
}

TEST(ProbeVerdict, LatenessThatCouldFindARecoveryOnADescendingStepMakesAFailureInconclusive) {
  // Not recovered at the base load nor on either step (p99 12 ms against a bound of 11 ms), but the steps'
  // sends were 5 ms late: shifted back by that, descend 1 would have recovered.
  Series x;
  x.add(10, [](int) { return second(100, 10ms); }).add(5, overloaded).add(20, overloaded);
  x.add(10, [](int) { return late(second(90, 12ms), 5ms); }).add(10, [](int) {
    return late(second(80, 12ms), 5ms);
  });
  RunFacts facts;
  facts.timeout_s = 5;
  const ProbeOutcome o = classify(plan(2), x.samples, facts);
  EXPECT_EQ(o.verdict, ProbeVerdict::inconclusive) << o.sentence;
  EXPECT_NE(o.sentence.find("descend 1 would have a healthy window"), std::string::npos) << o.sentence;
  EXPECT_NE(o.notes.back().find("METASTABLE"), std::string::npos) << o.notes.back();
  // The same steps sent on time: METASTABLE.
  Series on_time;
  on_time.add(10, [](int) { return second(100, 10ms); }).add(5, overloaded).add(20, overloaded);
  on_time.add(20, [](int) { return second(90, 12ms); });
  EXPECT_EQ(classify(plan(2), on_time.samples, facts).verdict, ProbeVerdict::metastable);
}

/// `s` with `dropped` of its intended requests dropped (never sent) and `unsent` more not sent either.
Sample short_of_plan(Sample s, std::uint64_t dropped, std::uint64_t unsent = 0) {
  s.counters.intended += dropped + unsent;
  s.counters.dropped += dropped;
  s.counters.timeouts += unsent;
  return s;
}

TEST(ProbeVerdict, DropsOrUnsentRequestsInOnePhaseAreInconclusiveNamingThePhase) {
  // 3 % dropped during the baseline only: 10 of 35 s, under 1 % of the whole run, still not the plan.
  Series dropped;
  dropped.add(10, [](int) { return short_of_plan(second(97, 1ms), 3); }).add(5, overloaded).add(20, healthy);
  ProbeOutcome o = classify(plan(), dropped.samples, {});
  EXPECT_EQ(o.verdict, ProbeVerdict::inconclusive) << o.sentence;
  EXPECT_NE(o.sentence.find("during baseline: it dropped 3.00% of the intended requests (bound 1%)"),
            std::string::npos)
      << o.sentence;
  // 3 % never sent (expired waiting for a connection) during observe.
  Series unsent;
  unsent.add(10, healthy).add(5, overloaded).add(20, [](int) {
    return short_of_plan(second(97, 1ms), 0, 3);
  });
  o = classify(plan(), unsent.samples, {});
  EXPECT_EQ(o.verdict, ProbeVerdict::inconclusive) << o.sentence;
  EXPECT_NE(o.sentence.find("during observe: it sent 97.00% of the intended requests (bound 99%)"),
            std::string::npos)
      << o.sentence;
  // Under 1 % dropped in every phase: the plan was applied.
  Series few;
  few.add(10, [](int) { return short_of_plan(second(199, 1ms), 1); }).add(5, overloaded);
  few.add(20, [](int) { return second(200, 1ms); });
  EXPECT_EQ(classify(plan(), few.samples, {}).verdict, ProbeVerdict::recovered);
}

TEST(ProbeVerdict, SkippedDescendingStepsAreMarkedAfterAnEarlyStop) {
  Series x;
  x.add(10, healthy).add(5, overloaded).add(20, healthy);  // the run stopped before its two steps
  RunFacts facts;
  facts.stopped_after_recovery = true;
  const ProbeOutcome o = classify(plan(2), x.samples, facts);
  EXPECT_EQ(o.verdict, ProbeVerdict::recovered);
  ASSERT_EQ(o.phases.size(), 5U);
  EXPECT_TRUE(o.phases[3].skipped);
  EXPECT_TRUE(o.phases[4].skipped);
}

TEST(ProbeVerdict, LabQueueAndLabCompletionsFeedTheSignals) {
  Series x;
  x.add(10, healthy).add(5, overloaded).add(20, [](int) { return second(0, 0ns, 100); });
  RunFacts facts;
  for (int t = 0; t <= 35; ++t) {
    LabSample s;
    s.t_s = t;
    s.completed = static_cast<std::uint64_t>(100 * t);  // the lab keeps completing 100/s: all of it wasted
    s.queue_depth = t < 10 ? 0 : static_cast<std::uint64_t>(200 * (t - 9));
    facts.lab.push_back(s);
  }
  const ProbeOutcome o = classify(plan(), x.samples, facts);
  EXPECT_EQ(o.verdict, ProbeVerdict::metastable);
  EXPECT_EQ(o.signals.front().name, "goodput ~0 with throughput ~capacity") << o.sentence;
  EXPECT_TRUE(has_signal(o, "lab queue"));
  ASSERT_TRUE(o.phases[2].lab_queue_max);
  EXPECT_EQ(*o.phases[2].lab_queue_max, 200U * 25U);  // the last poll inside observe, at 34 s
}

// Each phase gets the ramp step's percentile intervals: on n when its window was not checked, on the window's
// effective n when it was (wider by √(n / n_eff)), with the correlation flag in the JSON and the text.
TEST(ProbeVerdict, EachPhaseHasPercentileIntervalsOnItsEffectiveN) {
  // Baseline: 10 s of 100 requests each at 10 µs, 20 µs, ..., 1 ms: 1,000 samples, each value 10 times.
  Series x;
  x.add(10,
        [](int) {
          Sample s = second(0, 0ms);
          s.counters.intended = s.counters.sent = s.counters.completed = s.counters.ok = 100;
          for (int k = 1; k <= 100; ++k) s.response_time.record(Nanos(10us * k).count());
          return s;
        })
      .add(5, overloaded)
      .add(20, healthy);
  const ProbePlan p = plan();
  ProbeOutcome o = classify(p, x.samples, {});
  results::RunChecks checks;
  results::WindowIndependence w;
  w.from_s = 0;
  w.to_s = 10;
  w.independence.tested = true;
  w.independence.samples = 1000;
  w.independence.lag1 = 0.8;
  w.independence.vanish_lag = 12;
  w.independence.threshold = 1.96 / std::sqrt(1000.0);
  w.independence.effective_fraction = 0.25;
  checks.windows.push_back(w);
  add_phase_intervals(o.phases, x.samples, checks);
  ASSERT_EQ(o.phases.size(), 3U);
  const PhaseRow& base = o.phases[0];
  EXPECT_TRUE(base.independence.tested);
  ASSERT_EQ(base.latency[1].count, 1000);
  EXPECT_DOUBLE_EQ(base.latency[1].effective_count, 250.0);
  // p90 of 1,000: ranks 900 ∓ 1.96·1000·√(0.09/250) = 900 ∓ 37.2 → 862 and 938: 870 µs and 940 µs (10 of each
  // value); the naive interval (n = 1,000) is 900 ∓ 18.6 → 881 and 919: 890 µs and 920 µs.
  EXPECT_EQ(base.latency[1].value, x.samples[0].response_time.highest_equivalent(900000));
  ASSERT_TRUE(base.latency[1].low && base.latency[1].high);
  const hdr::Histogram& any = x.samples[0].response_time;
  EXPECT_EQ(*base.latency[1].low, any.highest_equivalent(870000));
  EXPECT_EQ(*base.latency[1].high, any.highest_equivalent(940000));
  // The trigger's window was not checked: its intervals are on n.
  const PhaseRow& trigger = o.phases[1];
  EXPECT_FALSE(trigger.independence.tested);
  EXPECT_EQ(trigger.latency[0].count, 500);
  EXPECT_DOUBLE_EQ(trigger.latency[0].effective_count, 500.0);

  const nlohmann::json j = o.to_json();
  const auto& rt = j["phases"][0]["response_time_ms"];
  EXPECT_DOUBLE_EQ(rt["p90"]["ci95"][0].get<double>(), static_cast<double>(*base.latency[1].low) / 1e6);
  EXPECT_DOUBLE_EQ(rt["effective_count"].get<double>(), 250.0);
  EXPECT_TRUE(rt["independence"]["tested"].get<bool>());
  EXPECT_NE(rt.value("correlation", std::string()).find("samples correlated at lag 12"), std::string::npos)
      << rt.dump();
  EXPECT_FALSE(j["phases"][1]["response_time_ms"].contains("correlation"));

  ProbeReport r;
  r.plan = p;
  ProbeRun run;
  run.outcome = o;
  r.runs.push_back(run);
  const std::string text = render_probe_text(r);
  EXPECT_NE(text.find("samples correlated at lag 12, effective n 250 of 1,000"), std::string::npos) << text;
  EXPECT_NE(text.find("p90 900µs (870µs–940µs)"), std::string::npos) << text;
}

TEST(ProbeReport, RepeatsReportKOfNAndTheWorstFinding) {
  ProbeReport r;
  r.plan = plan();
  r.runs.resize(3);
  r.runs[0].outcome.verdict = ProbeVerdict::recovered;
  r.runs[0].outcome.recovery_s = 4;
  r.runs[1].outcome.verdict = ProbeVerdict::metastable;
  r.runs[2].outcome.verdict = ProbeVerdict::inconclusive;
  EXPECT_EQ(overall_verdict(r), ProbeVerdict::metastable);
  EXPECT_EQ(overall_sentence(r), "METASTABLE in 1 of 3 runs (recovery after 4s); 1 inconclusive");
  EXPECT_EQ(probe_exit_code(r), 1);
  r.runs[1].outcome.verdict = ProbeVerdict::recovered;
  r.runs[1].outcome.recovery_s = 5;
  EXPECT_EQ(overall_sentence(r), "RECOVERED in 2 of 3 runs (recovery after 4s, 5s); 1 inconclusive");
  EXPECT_EQ(probe_exit_code(r), 0);
  r.runs[0].outcome.verdict = r.runs[1].outcome.verdict = ProbeVerdict::inconclusive;
  EXPECT_EQ(probe_exit_code(r), 3);
  r.runs[0].outcome.verdict = ProbeVerdict::recovered_at_lower_load;
  EXPECT_EQ(probe_exit_code(r), 1);
  r.interrupted = true;
  EXPECT_EQ(probe_exit_code(r), 130);
}

}  // namespace
}  // namespace openloop::procedures
