#include "results/judging/verdict.h"

#include "results/judging/generator_tail.h"
#include "results/judging/timer_floor.h"

#include <gtest/gtest.h>

using namespace openloop::results;

namespace {
RunResults open_run(std::uint64_t intended, std::uint64_t sent, std::uint64_t dropped) {
  RunResults r;
  r.info.model = Model::open;
  r.measured_s = 10;
  r.totals.intended = intended;
  r.totals.sent = sent;
  r.totals.completed = sent;
  r.totals.ok = sent;
  r.totals.status_class[2] = sent;
  r.totals.dropped = dropped;
  return r;
}
}  // namespace

TEST(Verdict, ValidWhenTheLoadWasApplied) {
  auto r = open_run(1000, 1000, 0);
  r.send_lateness.record(50'000);
  EXPECT_TRUE(judge(r).valid);
}

TEST(Verdict, InvalidWhenMoreThanOnePercentDropped) {
  auto r = open_run(1000, 980, 20);
  const Verdict v = judge(r);
  EXPECT_FALSE(v.valid);
  ASSERT_FALSE(v.reasons.empty());
  EXPECT_NE(v.reasons[0].find("dropped 20 of 1000"), std::string::npos);
}

TEST(Verdict, InvalidWhenSendLatenessP99ExceedsItsBound) {
  auto r = open_run(1000, 1000, 0);  // mean gap 10 ms → bound max(1 ms, 1 ms) = 1 ms
  for (int i = 0; i < 100; ++i) r.send_lateness.record(5'000'000);
  const Verdict v = judge(r);
  EXPECT_FALSE(v.valid);
  EXPECT_NE(v.reasons.back().find("send lateness p99"), std::string::npos);
}

TEST(Verdict, InvalidWhenTheGeneratorCpuWasSaturated) {
  auto r = open_run(1000, 1000, 0);
  r.generator.threads = 2;
  r.generator.wall_seconds = 10;
  r.generator.cpu_seconds = 19;
  EXPECT_FALSE(judge(r).valid);
}

TEST(Verdict, SpinningThroughShortWaitsIsNotSaturation) {
  auto r = open_run(1000, 1000, 0);
  r.generator.threads = 1;
  r.generator.wall_seconds = 10;
  r.generator.cpu_seconds = 9.8;   // 98 % of the thread...
  r.generator.spin_seconds = 4.0;  // ...of which 40 % polling through waits too short to sleep on: 58 % busy
  EXPECT_TRUE(judge(r).valid);
  r.generator.spin_seconds = 0.5;  // 93 % busy
  const Verdict v = judge(r);
  ASSERT_FALSE(v.valid);
  EXPECT_NE(v.reasons.back().find("generator CPU 93%"), std::string::npos) << v.reasons.back();
  EXPECT_NE(v.reasons.back().find("more --threads, or --coalesce"), std::string::npos) << v.reasons.back();
}

TEST(Verdict, ClosedRunsAreNotJudgedOnSchedule) {
  auto r = open_run(1000, 900, 0);
  r.totals.unfinished = 100;  // the counts still balance
  r.info.model = Model::closed;
  EXPECT_TRUE(judge(r).valid);
}

namespace {
bool names(const Verdict& v, std::string_view what) {
  for (const auto& reason : v.reasons)
    if (reason.find(what) != std::string::npos) return true;
  return false;
}
// Drop tests isolate the drop rule: dropped requests are never sent, so the sent rule would fire too.
constexpr VerdictBounds k_drops_only{.min_sent_fraction = 0};
}  // namespace

TEST(Verdict, DroppedFractionBoundaryIsOnePercentInclusive) {
  EXPECT_TRUE(judge(open_run(1000, 991, 9), k_drops_only).valid);    // 0.9 %
  EXPECT_TRUE(judge(open_run(1000, 990, 10), k_drops_only).valid);   // 1.0 %: at the bound
  const Verdict above = judge(open_run(1000, 989, 11), k_drops_only);  // 1.1 %
  EXPECT_FALSE(above.valid);
  EXPECT_TRUE(names(above, "dropped 11 of 1000 intended requests (1.10% > 1%)")) << above.reasons.front();
}

TEST(Verdict, DroppedFractionBoundaryHoldsForLargeCounts) {
  EXPECT_TRUE(judge(open_run(1'000'000, 990'000, 10'000), k_drops_only).valid);
  EXPECT_FALSE(judge(open_run(1'000'000, 989'999, 10'001), k_drops_only).valid);
}

TEST(Verdict, SentFractionBoundaryIsNinetyNinePercentInclusive) {
  // Not sent and not dropped: e.g. queued past their deadline (--on-saturation queue), timeouts never sent (so
  // the counts still add up).
  const auto open_run = [](std::uint64_t intended, std::uint64_t sent, std::uint64_t dropped) {
    auto r = ::open_run(intended, sent, dropped);
    r.totals.timeouts = intended - sent - dropped;
    return r;
  };
  EXPECT_TRUE(judge(open_run(1000, 991, 0)).valid);  // 99.1 %
  EXPECT_TRUE(judge(open_run(1000, 990, 0)).valid);  // 99.0 %: at the bound
  const Verdict below = judge(open_run(1000, 989, 0));  // 98.9 %
  ASSERT_FALSE(below.valid);
  ASSERT_EQ(below.reasons.size(), 1U);
  EXPECT_TRUE(names(below, "sent 989 of 1000 intended requests (98.90% < 99%)")) << below.reasons.front();
  EXPECT_TRUE(judge(open_run(1'000'000, 990'000, 0)).valid);
  EXPECT_FALSE(judge(open_run(1'000'000, 989'999, 0)).valid);
}

TEST(Verdict, DroppedAndUnsentAtOnceNameBothReasons) {
  const Verdict v = judge(open_run(1000, 900, 100));
  EXPECT_FALSE(v.valid);
  EXPECT_TRUE(names(v, "dropped 100 of 1000"));
  EXPECT_TRUE(names(v, "sent 900 of 1000"));
}

TEST(Verdict, AbandonedArrivalsBlameTheGeneratorNotThePool) {
  // 100 arrivals abandoned by a generator too far behind, 5 dropped at the pool's cap: the pool's share
  // (0.5 %) is within its bound, and the abandonment is named with the timeout it waited.
  auto r = open_run(1000, 895, 105);
  r.info.timeout_s = 2;
  r.generator.abandoned = 100;
  const Verdict v = judge(r);
  ASSERT_FALSE(v.valid);
  EXPECT_FALSE(names(v, "connection pool was full"));
  EXPECT_TRUE(names(v, "the generator fell behind its schedule: 100 of 1000 intended requests (10.00% > 1%) were "
                       "still unsent one timeout (2 s) after the end"));
  EXPECT_TRUE(names(v, "counted as dropped"));
  r.generator.abandoned = 50;  // now 55 pool drops: 5.5 %
  EXPECT_TRUE(names(judge(r), "dropped 55 of 1000 intended requests"));
}

TEST(Verdict, AbandonedArrivalsShareTheDroppedBound) {
  // One late arrival at the end of a run with a 1-ms timeout is not a run that failed to apply its load: 1 %
  // abandoned is within the bound the pool's drops have, 1.1 % is not.
  auto r = open_run(1000, 990, 10);
  r.generator.abandoned = 10;
  EXPECT_FALSE(names(judge(r), "fell behind its schedule"));
  r = open_run(1000, 989, 11);
  r.generator.abandoned = 11;
  EXPECT_TRUE(names(judge(r), "fell behind its schedule: 11 of 1000 intended requests (1.10% > 1%)"));
}

TEST(Verdict, AbandonedSessionsAreJudgedAgainstTheSessionsPlanned) {
  auto r = open_run(1000, 1000, 0);
  r.info.model = Model::sessions;
  r.info.timeout_s = 5;
  r.flows.sessions_intended = 90;  // those that started; 10 more were abandoned
  r.generator.abandoned = 10;
  const Verdict v = judge(r);
  ASSERT_FALSE(v.valid);
  EXPECT_TRUE(names(v, "10 of 100 arriving sessions (10.00% > 1%) were still unsent one timeout (5 s) after the "
                       "end"));
  EXPECT_TRUE(names(v, "they never started"));
}

TEST(Verdict, AnyGeneratorErrorInvalidatesTheRunAndIsNamed) {
  auto r = open_run(1000, 999, 0);
  r.totals.completed = 999;
  r.totals.error(ErrorKind::generator) = 1;  // one socket() that failed with EMFILE
  const Verdict v = judge(r);
  ASSERT_FALSE(v.valid);
  ASSERT_EQ(v.reasons.size(), 1U);
  EXPECT_TRUE(names(v, "the generator itself failed 1 of 1000 intended requests")) << v.reasons.front();
  EXPECT_TRUE(names(v, "ulimit -n"));
}

TEST(Verdict, GeneratorErrorsInvalidateClosedRunsToo) {
  auto r = open_run(1000, 990, 0);
  r.info.model = Model::closed;
  r.totals.error(ErrorKind::generator) = 10;
  EXPECT_FALSE(judge(r).valid);
}

TEST(Verdict, TargetErrorsDoNotInvalidateTheRun) {
  auto r = open_run(1000, 1000, 0);
  for (std::size_t k = 0; k < k_error_kinds; ++k) {
    if (static_cast<ErrorKind>(k) != ErrorKind::generator) r.totals.errors[k] = 100;
  }
  // The rest completed, so the counts add up.
  r.totals.completed = r.totals.ok = r.totals.status_class[2] = 1000 - r.totals.errors_total();
  EXPECT_TRUE(judge(r).valid) << judge(r).reasons.front();
}

TEST(Verdict, InvalidWhenAnIntervalsCountsDoNotAddUp) {
  auto r = open_run(1000, 1000, 0);
  IntervalResult good, bad;
  good.counters = r.totals;
  bad.start_s = 3;
  bad.counters = r.totals;
  bad.counters.status_class[2] = 999;  // one 2xx short: a completed request without a status
  r.intervals = std::vector<IntervalResult>{good, bad};
  const Verdict v = judge(r);
  ASSERT_FALSE(v.valid);
  EXPECT_NE(v.reasons.back().find("the counts do not add up in the interval at 3s: the status classes add up "
                                  "to 999, but completed is 1000"),
            std::string::npos)
      << v.reasons.back();
}

TEST(Verdict, InvalidWhenOkExceedsCompleted) {
  auto r = open_run(1000, 1000, 0);
  r.totals.ok = 1001;
  const Verdict v = judge(r);
  ASSERT_FALSE(v.valid);
  EXPECT_NE(v.reasons.back().find("in the totals: expected ok 1001 ≤ completed 1000"), std::string::npos)
      << v.reasons.back();
}

TEST(Verdict, InvalidWhenMoreArrivalsWaitedForASlotThanWereIntended) {
  auto r = open_run(1000, 1000, 0);
  r.totals.slot_waits = 1000;  // every arrival waited: possible, and named by its own reason
  const std::string every = judge(r).reasons.empty() ? "" : judge(r).reasons.back();
  EXPECT_EQ(every.find("do not add up"), std::string::npos) << every;
  r.totals.slot_waits = 1001;
  const Verdict v = judge(r);
  ASSERT_FALSE(v.valid);
  EXPECT_NE(v.reasons.back().find("in the totals: expected slot_waits 1001 ≤ intended 1000"),
            std::string::npos)
      << v.reasons.back();
}

TEST(Verdict, LateSendsNameTheHypervisorsStealAndTheWaitForACpuWhenEitherIsLarge) {
  auto r = open_run(1000, 1000, 0);
  for (int i = 0; i < 100; ++i) r.send_lateness.record(5'000'000);
  r.generator.threads = 2;
  r.generator.wall_seconds = 10;  // 20 thread-seconds
  // Unknown (no /proc, an older file): the reason as ever, no cause guessed.
  const std::string plain = judge(r).reasons.back();
  EXPECT_EQ(plain.find("during the run"), std::string::npos) << plain;
  // Known but small (1.9 % stolen, 0.39 s = 1.95 % of the threads' time waiting): not named.
  r.generator.steal_share = 0.019;
  r.generator.run_delay_seconds = 0.39;
  EXPECT_EQ(judge(r).reasons.back(), plain);
  r.generator.steal_share = 0.187;
  std::string why = judge(r).reasons.back();
  EXPECT_NE(why.find("send lateness p99"), std::string::npos) << why;
  EXPECT_NE(why.find("the hypervisor stole 18.7% of this machine's CPU time (steal)"), std::string::npos) << why;
  EXPECT_EQ(why.find("waited"), std::string::npos) << why;
  EXPECT_NE(why.find("the rig, not the target"), std::string::npos) << why;
  r.generator.steal_share = 0.0;
  r.generator.run_delay_seconds = 0.5;  // 2.5 %
  why = judge(r).reasons.back();
  EXPECT_EQ(why.find("hypervisor"), std::string::npos) << why;
  EXPECT_NE(why.find("its worker thread(s) waited 500ms (2.5% of their time) for a CPU"), std::string::npos)
      << why;
}

TEST(Verdict, AnAbandonedScheduleNamesTheStealToo) {
  auto r = open_run(1000, 900, 100);
  r.generator.abandoned = 100;
  r.generator.threads = 1;
  r.generator.wall_seconds = 10;
  r.generator.steal_share = 0.05;
  const Verdict v = judge(r, k_drops_only);
  ASSERT_TRUE(names(v, "fell behind its schedule"));
  EXPECT_TRUE(names(v, "the hypervisor stole 5.0%"));
}

namespace {
// An open run at 1000 over 10 s whose sends were late (p99 5 ms > the 1-ms bound), by a generator with one
// thread busy `cpu_share` of the time.
RunResults late_run(double cpu_share) {
  auto r = open_run(1000, 1000, 0);
  for (int i = 0; i < 100; ++i) r.send_lateness.record(5'000'000);
  r.generator.threads = 1;
  r.generator.wall_seconds = 10;
  r.generator.cpu_seconds = 10 * cpu_share;
  r.generator.run_delay_seconds = 0.05;  // 0.5 %: not worth naming
  r.generator.steal_share = 0.001;
  return r;
}
TimerFloor jittery_floor() {
  TimerFloor f;
  f.samples = 1200;
  f.gap_us = 50;
  f.p50_us = 28;
  f.p99_us = 900;
  f.max_us = 6800;
  return f;
}
}  // namespace

TEST(Verdict, LateSendsOnAHostWithLateTimersNameTheTimerFloorNotTheGenerator) {
  auto r = late_run(0.68);
  set_timer_floor(r.info, jittery_floor());
  const std::string why = judge(r).reasons.back();
  EXPECT_EQ(why.rfind("send lateness p99 5ms > 1ms", 0), 0U) << why;
  EXPECT_NE(why.find("the host wakes sleeping threads late (timer floor p99 900µs, p50 28µs, max 6.8ms"),
            std::string::npos)
      << why;
  EXPECT_NE(why.find("not CPU-bound (CPU 68% of its 1 thread(s))"), std::string::npos) << why;
  EXPECT_NE(why.find("use --spin-below auto or a quieter host"), std::string::npos) << why;
  EXPECT_EQ(why.find("overloaded"), std::string::npos) << why;
  // Already spinning through a lead: the advice is the budget.
  TimerFloor spinning = jittery_floor();
  spinning.spin_lead_us = 850;
  spinning.spin_budget = spinning.spin_budget_low = 0.5;
  set_timer_floor(r.info, spinning);
  const std::string spun = judge(r).reasons.back();
  EXPECT_NE(spun.find("--spin-below auto spun through the last 850µs of each wait within 50% of a core; use "
                      "--spin-budget 100%, --spin-below 10ms"),
            std::string::npos)
      << spun;
  // A budget the wait for a CPU scaled down says how far; a full core's advises no larger budget.
  spinning.spin_budget = 1.0;
  spinning.spin_budget_low = 0.2;
  set_timer_floor(r.info, spinning);
  const std::string scaled = judge(r).reasons.back();
  EXPECT_NE(scaled.find("within 100% of a core (down to 20% while the workers waited for a CPU); use --spin-below "
                        "10ms"),
            std::string::npos)
      << scaled;
}

// A ramp's step (a slice of its run) has no CPU figure of its own: the reason says it is unknown rather than
// that the generator was not CPU-bound.
TEST(Verdict, LateTimersWithTheCpuUnmeasuredSayItIsUnknownNotThatItWasIdle) {
  auto r = late_run(0);
  set_timer_floor(r.info, jittery_floor());
  const std::string why = judge(r).reasons.back();
  EXPECT_NE(why.find("the host wakes sleeping threads late"), std::string::npos) << why;
  EXPECT_NE(why.find("and the generator's CPU was not measured for this part of the run: "),
            std::string::npos)
      << why;
  EXPECT_EQ(why.find("not CPU-bound"), std::string::npos) << why;
}

TEST(Verdict, AFloorGivenByTheEnvironmentIsNamedAsGivenNotMeasured) {
  auto r = late_run(0.68);
  TimerFloor given = jittery_floor();
  given.samples = 1;
  given.given = true;
  set_timer_floor(r.info, given);
  const std::string why = judge(r).reasons.back();
  EXPECT_NE(why.find("timer floor p99 900µs, p50 28µs, max 6.8ms, given by OPENLOOP_TIMER_FLOOR_US, not measured)"),
            std::string::npos)
      << why;
  EXPECT_EQ(why.find("measured before the run"), std::string::npos) << why;
  // Ruled out by its figures: still named as given.
  given.p99_us = 80;
  set_timer_floor(r.info, given);
  const std::string quiet = judge(r).reasons.back();
  EXPECT_NE(quiet.find("floor p99 80µs given by OPENLOOP_TIMER_FLOOR_US, explain it"), std::string::npos) << quiet;
}

TEST(Verdict, SendsQueuedForAFreeSlotNameTheSlotsNotTheTimers) {
  // 50 of 1000 arrivals waited 20 ms for a stream (the rest none): their lateness is the connections'. Even on a
  // host with late timers the reason names the wait and its remedy, not the floor or the generator.
  auto r = late_run(0.68);
  set_timer_floor(r.info, jittery_floor());
  r.totals.slot_waits = 50;
  for (int i = 0; i < 50; ++i) r.slot_wait.record(20'000'000);
  r.generator.connections_h2 = 1;
  r.info.plan["max_in_flight"] = 400;  // --connections 4 × 100 streams: fewer connections than slots
  const Verdict v = judge(r);
  EXPECT_FALSE(v.valid);
  ASSERT_EQ(v.reasons.size(), 1U) << v.reasons.back();
  const std::string& why = v.reasons[0];
  EXPECT_EQ(why.rfind("5.0% of sends (50 of 1000 intended) waited for a free stream/connection (slot wait p99 20", 0),
            0U)
      << why;
  EXPECT_NE(why.find("send lateness p99 5ms"), std::string::npos) << why;
  EXPECT_NE(why.find("raise --connections or --max-streams"), std::string::npos) << why;
  EXPECT_EQ(why.find("timer floor"), std::string::npos) << why;
  // HTTP/2 on connections opened as needed: the cap on them is what to raise, as over HTTP/1.1.
  r.info.plan.erase("max_in_flight");
  EXPECT_NE(judge(r).reasons[0].find("raise --max-connections"), std::string::npos) << judge(r).reasons[0];
  // HTTP/1.1: the cap to raise is --max-connections.
  r.info.plan["max_in_flight"] = 400;
  r.generator.connections_h2 = 0;
  EXPECT_NE(judge(r).reasons[0].find("raise --max-connections"), std::string::npos) << judge(r).reasons[0];
  // 1 % waited is within the bound: the lateness is judged as ever (here the timers).
  r.totals.slot_waits = 10;
  const std::string late = judge(r).reasons.back();
  EXPECT_EQ(late.rfind("send lateness p99 5ms > 1ms", 0), 0U) << late;
  // And the generator's-tail warning does not blame the generator for a queued tail.
  auto t = open_run(2000, 2000, 0);
  for (int i = 0; i < 1990; ++i) {
    t.response_time.record(300'000);
    t.send_lateness.record(30'000);
  }
  for (int i = 0; i < 10; ++i) {
    t.response_time.record(5'190'000);
    t.send_lateness.record(4'180'000);
  }
  EXPECT_FALSE(generator_tail_warning(t).empty());
  t.totals.slot_waits = 10;
  EXPECT_EQ(generator_tail_warning(t), "");
}

TEST(Verdict, LateSendsOfACpuBoundGeneratorSaySoWhateverTheTimers) {
  auto r = late_run(0.85);
  set_timer_floor(r.info, jittery_floor());
  const std::string why = judge(r).reasons.back();
  EXPECT_NE(why.find("the generator was CPU-bound, its 1 thread(s) busy 85% of the time"), std::string::npos)
      << why;
  EXPECT_EQ(why.find("timer floor"), std::string::npos) << why;
}

TEST(Verdict, LateSendsOnAQuietFloorNameTheFiguresThatRuleCausesOut) {
  auto r = late_run(0.30);
  set_timer_floor(r.info, jittery_floor());
  TimerFloor quiet = jittery_floor();
  quiet.p99_us = 80;  // well within half the bound
  set_timer_floor(r.info, quiet);
  const std::string why = judge(r).reasons.back();
  EXPECT_NE(why.find("neither the generator's CPU, 30% of its 1 thread(s), nor the host's timers, floor p99 "
                     "80µs"),
            std::string::npos)
      << why;
}

TEST(Verdict, LateSendsOnTimersThatWokeLateOnlyDuringTheRunNameTheRunsFigure) {
  auto r = late_run(0.30);
  TimerFloor f = jittery_floor();
  f.p99_us = 80;  // quiet before the run
  f.run_samples = 4000;
  f.run_p50_us = 40;
  f.run_p99_us = 1500;  // over half the 1-ms bound during it
  f.run_max_us = 9000;
  set_timer_floor(r.info, f);
  const std::string why = judge(r).reasons.back();
  EXPECT_NE(why.find("the host woke sleeping threads later during the run than before it (the workers' timed waits "
                     "woke p99 1.5ms, max 9ms late over 4000 waits; before the run p99 80µs)"),
            std::string::npos)
      << why;
  EXPECT_NE(why.find("not CPU-bound (CPU 30% of its 1 thread(s))"), std::string::npos) << why;
  // Within half the bound during the run too: the timers are ruled out by both figures.
  f.run_p99_us = 400;
  set_timer_floor(r.info, f);
  const std::string quiet = judge(r).reasons.back();
  EXPECT_NE(quiet.find("nor the host's timers, floor p99 80µs before the run and 400µs during the run, explain "
                       "it: slow connects or too few connections)"),
            std::string::npos)
      << quiet;
}

TEST(Verdict, LateSendsOfACpuStarvedGeneratorNameTheWaitNotTheTimers) {
  auto r = late_run(0.40);
  set_timer_floor(r.info, jittery_floor());
  r.generator.run_delay_seconds = 1.0;  // 10 % of its time waiting for a CPU
  const std::string why = judge(r).reasons.back();
  EXPECT_NE(why.find("waited 1s (10.0% of their time) for a CPU"), std::string::npos) << why;
  EXPECT_EQ(why.find("timer floor"), std::string::npos) << why;
}

TEST(GeneratorTail, NamedWhenLatenessIsALargeShareOfTheResponseTail) {
  // The nginx run at 2000/s: response p99.9 5.19 ms, send lateness p99.9 4.18 ms, VALID.
  auto r = open_run(2000, 2000, 0);
  for (int i = 0; i < 1990; ++i) {
    r.response_time.record(300'000);
    r.send_lateness.record(30'000);
  }
  for (int i = 0; i < 10; ++i) {
    r.response_time.record(5'190'000);
    r.send_lateness.record(4'180'000);
  }
  const std::string w = generator_tail_warning(r);
  EXPECT_EQ(w.rfind("the tail is the generator's: send lateness p99.9 4.18", 0), 0U) << w;
  EXPECT_NE(w.find("of response p99.9 5.19"), std::string::npos) << w;
  EXPECT_NE(w.find("(8"), std::string::npos) << w;  // 80–81 %, as the histogram rounds
  // The remedies: more threads only while the host has cores for them; never --spin-below auto (the default).
  r.generator.threads = 2;
  r.info.environment = {{"cores", 4}};
  EXPECT_NE(generator_tail_warning(r).find("more --threads (this host has 4 cores)"), std::string::npos);
  r.info.environment = {{"cores", 2}};
  const std::string two = generator_tail_warning(r);
  EXPECT_EQ(two.find("more --threads"), std::string::npos) << two;
  EXPECT_NE(two.find("a quieter host or dedicated cores, or --spin-below 10ms"), std::string::npos) << two;
  EXPECT_EQ(two.find("--spin-below auto"), std::string::npos) << two;
}

TEST(GeneratorTail, QuietWhenTheTailIsTheTargetsOrThereIsNoTail) {
  auto r = open_run(2000, 2000, 0);
  for (int i = 0; i < 2000; ++i) {
    r.response_time.record(i < 1990 ? 300'000 : 5'000'000);
    r.send_lateness.record(i < 1990 ? 30'000 : 1'000'000);  // 20 % of the tail: the target's
  }
  EXPECT_EQ(generator_tail_warning(r), "");
  auto tiny = open_run(2000, 2000, 0);
  for (int i = 0; i < 2000; ++i) {
    tiny.response_time.record(120'000);
    tiny.send_lateness.record(60'000);  // half of a 0.12-ms tail, but 0.06 ms is not worth naming
  }
  EXPECT_EQ(generator_tail_warning(tiny), "");
  auto few = open_run(999, 999, 0);
  for (int i = 0; i < 999; ++i) {
    few.response_time.record(5'000'000);
    few.send_lateness.record(4'000'000);
  }
  EXPECT_EQ(generator_tail_warning(few), "");  // no p99.9 to speak of
  few.info.model = Model::closed;
  EXPECT_EQ(generator_tail_warning(few), "");
}

namespace {
// A VALID open run whose p99 is 4 ms, 2.92 ms of it send lateness (73 %), service time p99 1.1 ms; judged against
// `slo`.
RunResults late_p99_run(const std::string& slo) {
  auto r = open_run(1000, 1000, 0);
  for (int i = 0; i < 1000; ++i) {
    const bool tail = i >= 980;
    r.response_time.record(tail ? 4'000'000 : 500'000);
    r.send_lateness.record(tail ? 2'920'000 : 20'000);
    r.service_time.record(tail ? 1'100'000 : 480'000);
  }
  r.slos = evaluate_slos({parse_slo(slo).value()}, r);
  return r;
}
}  // namespace

TEST(GeneratorTail, AFailedLatencySloThatIsMostlySendLatenessSaysSo) {
  const auto r = late_p99_run("p99<2ms");
  ASSERT_FALSE(r.slos.front().met);
  const auto l = slo_lateness(r.slos.front(), r);
  ASSERT_TRUE(l.has_value());
  EXPECT_NEAR(l->share, 0.73, 0.01);  // the histogram's buckets round within 0.1 %
  const std::string note = slo_lateness_note(r.slos.front(), r);
  EXPECT_EQ(note.rfind("73% of this p99 is openloop's own send lateness (p99 2.92ms of response p99 4ms; service "
                       "time p99 1.1ms): the target may not be at fault",
                       0),
            0U)
      << note;
}

TEST(GeneratorTail, NoSloNoteWhenTheSloIsMetTheLatenessSmallOrTheMetricAnother) {
  EXPECT_EQ(slo_lateness_note(late_p99_run("p99<5ms").slos.front(), late_p99_run("p99<5ms")), "");  // met
  // p50: 20 µs of lateness in 0.5 ms, not worth naming.
  const auto p50 = late_p99_run("p50<0.1ms");
  ASSERT_FALSE(p50.slos.front().met);
  EXPECT_FALSE(slo_lateness(p50.slos.front(), p50).has_value());
  // Errors, a lower bound and a closed model say nothing about lateness in a percentile.
  for (const char* text : {"errors<0%", "p99>10ms"}) {
    const auto other = late_p99_run(text);
    ASSERT_FALSE(other.slos.front().met) << text;
    EXPECT_FALSE(slo_lateness(other.slos.front(), other).has_value()) << text;
  }
  auto closed = late_p99_run("p99<2ms");
  closed.info.model = Model::closed;
  EXPECT_FALSE(slo_lateness(closed.slos.front(), closed).has_value());
  // The target's own tail: lateness 20 % of the p99.
  auto target = open_run(1000, 1000, 0);
  for (int i = 0; i < 1000; ++i) {
    target.response_time.record(4'000'000);
    target.send_lateness.record(800'000);
  }
  target.slos = evaluate_slos({parse_slo("p99<2ms").value()}, target);
  EXPECT_FALSE(slo_lateness(target.slos.front(), target).has_value());
}

TEST(Verdict, ADeadTargetIsNamedAsTheTargetsFailureNotTheGenerators) {
  auto r = open_run(300, 0, 0);
  r.totals.completed = r.totals.ok = r.totals.status_class[2] = 0;
  r.totals.errors[static_cast<std::size_t>(ErrorKind::connect)] = 300;
  for (int i = 0; i < 100; ++i) r.send_lateness.record(5'000'000);
  const Verdict v = judge(r);
  EXPECT_FALSE(v.valid);
  ASSERT_EQ(v.reasons.size(), 1U) << v.reasons.back();
  EXPECT_EQ(v.reasons[0].rfind("the target was never reached: all 300 attempts failed to connect", 0), 0U)
      << v.reasons[0];
}
