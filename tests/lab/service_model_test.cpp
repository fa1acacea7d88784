// The service model on a manual clock: capacity, ordering, shedding, deadlines, stalls, cache, dependency
// pool.
#include "lab/service_model.h"

#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <vector>

#include "core/clock.h"

using namespace openloop;
using namespace openloop::lab;
using namespace std::chrono_literals;

namespace {

struct Answer {
  std::uint64_t tag;
  Outcome outcome;
  Nanos at;  // since start
};

class Recorder final : public ModelSink {
 public:
  void on_outcome(std::uint64_t tag, Outcome outcome, SteadyTime at) override {
    answers.push_back({tag, outcome, at - SteadyTime{}});
  }
  void on_timing(std::uint64_t tag, Nanos queue_wait, Nanos service, CacheLookup cache) override {
    timings.push_back({tag, queue_wait, service, cache});
  }
  bool still_wanted(std::uint64_t tag) override { return gone.count(tag) == 0; }
  struct Timing {
    std::uint64_t tag;
    Nanos queue_wait, service;
    CacheLookup cache;
  };
  std::vector<Timing> timings;  // before the matching answer, for the lab's Server-Timing header
  std::vector<Answer> answers;
  std::set<std::uint64_t> gone;
};

// A model driven by hand: submit at the clock's time, advance() fires every timer due.
struct Harness {
  explicit Harness(ModelConfig config)
      : model(std::make_unique<ServiceModel>(config, timers, sink, clock.now())) {}
  void submit(std::uint64_t tag, SteadyTime deadline = SteadyTime::max(), std::uint64_t key = 0) {
    model->submit(clock.now(), Arrival{tag, deadline, key});
  }
  void advance(Nanos d) {
    clock.advance(d);
    timers.fire_due(clock.now());
  }
  void advance_to(Nanos t) { advance(t - (clock.now() - SteadyTime{})); }
  std::vector<std::uint64_t> order() const {
    std::vector<std::uint64_t> out;
    for (const Answer& a : sink.answers) out.push_back(a.tag);
    return out;
  }
  std::size_t count(Outcome o) const {
    std::size_t n = 0;
    for (const Answer& a : sink.answers) n += a.outcome == o ? 1 : 0;
    return n;
  }

  ManualClock clock;
  net::TimerQueue timers;
  Recorder sink;
  std::unique_ptr<ServiceModel> model;
};

ModelConfig workers(std::uint32_t k, Nanos service) {
  ModelConfig c;
  c.workers = k;
  c.service = ServiceTime::constant(service);
  return c;
}

}  // namespace

TEST(ServiceModel, CapacityIsWorkersOverServiceTime) {
  Harness h(workers(4, 1ms));
  for (std::uint64_t i = 0; i < 1000; ++i) h.submit(i);
  h.advance(100ms);
  EXPECT_EQ(h.sink.answers.size(), 400u);
  h.advance(150ms);
  EXPECT_EQ(h.sink.answers.size(), 1000u);
  EXPECT_EQ(h.sink.answers.back().at, 250ms);
}

TEST(ServiceModel, OverloadCompletesExactlyCapacityEvenWhenTimersFireLate) {
  Harness h(workers(2, 1ms));
  // 5000/s offered for one second against a capacity of 2000/s; timers fired only every 10 ms.
  for (int step = 0; step < 100; ++step) {
    for (int i = 0; i < 50; ++i) h.submit(static_cast<std::uint64_t>(step * 50 + i));
    h.advance(10ms);
  }
  EXPECT_EQ(h.model->totals().completed(), 2000u);
  EXPECT_EQ(h.model->snapshot(h.clock.now()).queue_depth, 5000u - 2000u - 2u);  // two in service
}

TEST(ServiceModel, FifoServesOldestFirst) {
  Harness h(workers(1, 10ms));
  for (std::uint64_t i = 0; i < 5; ++i) h.submit(i);
  h.advance(100ms);
  EXPECT_EQ(h.order(), (std::vector<std::uint64_t>{0, 1, 2, 3, 4}));
}

TEST(ServiceModel, LifoServesNewestFirst) {
  ModelConfig c = workers(1, 10ms);
  c.queue = QueueDiscipline::lifo;
  Harness h(c);
  for (std::uint64_t i = 0; i < 5; ++i) h.submit(i);
  h.advance(100ms);
  EXPECT_EQ(h.order(), (std::vector<std::uint64_t>{0, 4, 3, 2, 1}));
}

TEST(ServiceModel, ShedsAtOnceWhenQueueReachesShedAt) {
  ModelConfig c = workers(1, 10ms);
  c.shed_at = 2;
  Harness h(c);
  for (std::uint64_t i = 0; i < 5; ++i) h.submit(i);
  ASSERT_EQ(h.sink.answers.size(), 2u);  // answered before any time passes
  EXPECT_EQ(h.sink.answers[0].outcome, Outcome::shed);
  EXPECT_EQ(h.sink.answers[0].at, 0ms);
  h.advance(100ms);
  EXPECT_EQ(h.count(Outcome::ok), 3u);
  EXPECT_EQ(h.model->totals().shed, 2u);
}

TEST(ServiceModel, RejectsWhenQueueLimitReached) {
  ModelConfig c = workers(1, 10ms);
  c.queue_limit = 1;
  Harness h(c);
  for (std::uint64_t i = 0; i < 4; ++i) h.submit(i);
  EXPECT_EQ(h.count(Outcome::rejected), 2u);
  h.advance(100ms);
  EXPECT_EQ(h.count(Outcome::ok), 2u);
}

TEST(ServiceModel, ExpiredRequestsAreDroppedAtDequeueWithoutWork) {
  Harness h(workers(1, 10ms));
  const SteadyTime deadline = h.clock.now() + 15ms;
  for (std::uint64_t i = 0; i < 3; ++i) h.submit(i, deadline);
  h.submit(3);
  h.advance(100ms);
  ASSERT_EQ(h.sink.answers.size(), 4u);
  EXPECT_EQ(h.sink.answers[1].at, 20ms);  // started at 10 ms, before its deadline
  EXPECT_EQ(h.sink.answers[2].outcome, Outcome::expired);
  EXPECT_EQ(h.sink.answers[2].at, 20ms);
  EXPECT_EQ(h.sink.answers[3].at, 30ms);  // the expired one took no service time
  EXPECT_EQ(h.model->totals().expired, 1u);
}

TEST(ServiceModel, StallFreezesServiceAdmissionAndCompletion) {
  ModelConfig c = workers(1, 5ms);
  c.stalls.add_once(StallWindow{10ms, 30ms});
  Harness h(c);
  h.advance_to(8ms);
  h.submit(0);  // in service 8..13 ms, but frozen from 10 to 30 ms
  h.advance_to(15ms);
  h.submit(1);  // arrives during the stall: held
  ModelSnapshot s = h.model->snapshot(h.clock.now());
  EXPECT_TRUE(s.frozen);
  EXPECT_EQ(s.held, 1u);
  EXPECT_EQ(s.queue_depth, 0u);
  h.advance_to(29ms);
  EXPECT_TRUE(h.sink.answers.empty());
  h.advance_to(100ms);
  ASSERT_EQ(h.sink.answers.size(), 2u);
  EXPECT_EQ(h.sink.answers[0].at, 33ms);  // 3 ms of work left after the stall
  EXPECT_EQ(h.sink.answers[1].at, 38ms);
  EXPECT_FALSE(h.model->frozen());
}

TEST(ServiceModel, PeriodicStallLeavesNoCompletionsInsideStalls) {
  ModelConfig c = workers(1, 1ms);
  c.stalls.set_periodic(StallWindow{100ms, 1s});
  Harness h(c);
  for (int i = 0; i < 1500; ++i) {
    h.submit(static_cast<std::uint64_t>(i));
    h.advance(2ms);
  }
  std::size_t in_stall = 0;
  for (const Answer& a : h.sink.answers) {
    const auto in_period = a.at % 1s;
    if (a.at >= 1s && in_period > 0ms && in_period < 100ms) ++in_stall;
  }
  EXPECT_EQ(in_stall, 0u);
  // After the first stall the backlog (50 held arrivals) drains one per millisecond.
  std::size_t right_after = 0;
  for (const Answer& a : h.sink.answers) right_after += (a.at > 1100ms && a.at <= 1150ms) ? 1 : 0;
  EXPECT_EQ(right_after, 50u);
}

TEST(ServiceModel, DependencyPoolExhaustionIsQueueing) {
  ModelConfig c = workers(10, 0ms);
  c.dependency = ServiceTime::constant(10ms);
  c.dependency_pool = 2;
  Harness h(c);
  for (std::uint64_t i = 0; i < 6; ++i) h.submit(i);
  ModelSnapshot s = h.model->snapshot(h.clock.now());
  EXPECT_EQ(s.busy_workers, 6u);
  EXPECT_EQ(s.dependency_in_use, 2u);
  EXPECT_EQ(s.dependency_waiting, 4u);
  h.advance(100ms);
  std::vector<Nanos> times;
  for (const Answer& a : h.sink.answers) times.push_back(a.at);
  EXPECT_EQ(times, (std::vector<Nanos>{10ms, 10ms, 20ms, 20ms, 30ms, 30ms}));
}

TEST(ServiceModel, CacheHitRatioAndHitMissTimes) {
  ModelConfig c = workers(1, 0ms);
  c.cache = 10;
  c.hit = ServiceTime::constant(1ms);
  c.miss = ServiceTime::constant(5ms);
  Harness h(c);
  for (int round = 0; round < 4; ++round) {
    for (std::uint64_t key = 0; key < 5; ++key) h.submit(key, SteadyTime::max(), key);
  }
  h.advance(1s);
  EXPECT_EQ(h.model->totals().cache_misses, 5u);
  EXPECT_EQ(h.model->totals().cache_hits, 15u);
  EXPECT_EQ(h.sink.answers.back().at, 5 * 5ms + 15 * 1ms);
}

TEST(ServiceModel, CancelDropsQueuedWorkOfClientsThatLeft) {
  ModelConfig c = workers(1, 10ms);
  c.cancel = true;
  Harness h(c);
  for (std::uint64_t i = 0; i < 3; ++i) h.submit(i);
  h.sink.gone.insert(1);
  h.advance(100ms);
  ASSERT_EQ(h.sink.answers.size(), 3u);
  EXPECT_EQ(h.sink.answers[1].outcome, Outcome::cancelled);
  EXPECT_EQ(h.sink.answers[2].at, 20ms);
}

TEST(ServiceModel, WithoutCancelWorkForClientsThatLeftIsStillDone) {
  Harness h(workers(1, 10ms));
  for (std::uint64_t i = 0; i < 3; ++i) h.submit(i);
  h.sink.gone.insert(1);
  h.advance(100ms);
  EXPECT_EQ(h.count(Outcome::ok), 3u);
  EXPECT_EQ(h.sink.answers[2].at, 30ms);
}

TEST(ServiceModel, ErrorRateAnswersFiveHundreds) {
  ModelConfig c = workers(1, 0ms);
  c.error_rate = 0.25;
  Harness h(c);
  for (std::uint64_t i = 0; i < 10000; ++i) h.submit(i);
  EXPECT_NEAR(static_cast<double>(h.model->totals().errors) / 10000.0, 0.25, 0.02);
  EXPECT_EQ(h.model->totals().completed(), 10000u);
}

TEST(ServiceModel, ZeroServiceTimeAnswersInsideSubmit) {
  Harness h(workers(1, 0ms));
  h.submit(7);
  ASSERT_EQ(h.sink.answers.size(), 1u);
  EXPECT_EQ(h.sink.answers[0].outcome, Outcome::ok);
  EXPECT_EQ(h.timers.size(), 0u);
}

TEST(ServiceModel, ConfigureAddsWorkersAtOnceAndRetiresExtraOnes) {
  Harness h(workers(1, 10ms));
  for (std::uint64_t i = 0; i < 8; ++i) h.submit(i);
  h.model->configure(workers(4, 10ms), h.clock.now());
  EXPECT_EQ(h.model->snapshot(h.clock.now()).busy_workers, 4u);
  h.advance(10ms);
  EXPECT_EQ(h.sink.answers.size(), 4u);
  h.model->configure(workers(1, 10ms), h.clock.now());
  h.advance(10ms);
  EXPECT_EQ(h.sink.answers.size(), 8u);  // the four busy workers finish; then only one takes work
  EXPECT_EQ(h.model->snapshot(h.clock.now()).busy_workers, 0u);
}

TEST(ServiceModel, ConfigureStallEndsTheStallInProgress) {
  ModelConfig c = workers(1, 1ms);
  c.stalls.add_once(StallWindow{0ms, 10s});
  Harness h(c);
  h.submit(0);
  EXPECT_TRUE(h.model->frozen());
  h.advance(5ms);
  h.model->configure(workers(1, 1ms), h.clock.now());
  EXPECT_FALSE(h.model->frozen());
  h.advance(1ms);
  ASSERT_EQ(h.sink.answers.size(), 1u);
  EXPECT_EQ(h.sink.answers[0].at, 6ms);
}

TEST(ServiceModel, RestartCountsTheStallWindowsFromThenAndEndsAStallInProgress) {
  ModelConfig c = workers(1, 5ms);
  c.stalls.add_once(StallWindow{10ms, 20ms});
  Harness h(c);
  h.advance_to(50ms);  // the lab's own stall (10..20 ms) is over
  h.model->restart(h.clock.now());
  h.advance_to(58ms);
  h.submit(0);  // in service 58..63 ms, frozen 60..70 ms: the stall is now 10..20 ms after the restart
  h.advance_to(100ms);
  ASSERT_EQ(h.sink.answers.size(), 1u);
  EXPECT_EQ(h.sink.answers[0].at, 73ms);

  h.model->restart(h.clock.now());  // at 100 ms: stall due 110..120 ms
  h.advance_to(115ms);
  EXPECT_TRUE(h.model->frozen());
  h.model->restart(h.clock.now());  // ends it; the next one is 10 ms from now
  EXPECT_FALSE(h.model->frozen());
  h.submit(1);
  h.advance_to(200ms);
  ASSERT_EQ(h.sink.answers.size(), 2u);
  EXPECT_EQ(h.sink.answers[1].at, 120ms);  // 115..120 ms, before the stall at 125 ms
}

TEST(ServiceModel, HistoryCountsPerSecond) {
  Harness h(workers(1, 1ms));
  for (int i = 0; i < 3000; ++i) {
    h.submit(static_cast<std::uint64_t>(i));
    h.advance(1ms);
  }
  const auto history = h.model->snapshot(h.clock.now()).history;
  ASSERT_GE(history.size(), 3u);
  EXPECT_EQ(history[0].second, 0);
  EXPECT_EQ(history[1].counts.arrivals, 1000u);
  EXPECT_EQ(history[1].counts.ok, 1000u);
}

TEST(ServiceModel, ReportsEachRequestsQueueWaitAndServiceTimeBeforeItsOutcome) {
  // One worker, 2 ms service, queue limit 2: three arrivals at once are served one after the other; the fourth
  // is refused at once (no wait, no service); a fifth, 2 ms in, waits behind the two still ahead of it.
  ModelConfig c = workers(1, 2ms);
  c.queue_limit = 2;
  Harness h(c);
  for (std::uint64_t i = 0; i < 4; ++i) h.submit(i);
  h.advance(2ms);
  h.submit(4);  // the worker took 1 at 2 ms; 2 runs 4..6 ms, so 4 waits 6 − 2 = 4 ms
  h.advance(20ms);
  ASSERT_EQ(h.sink.timings.size(), h.sink.answers.size());
  for (std::size_t k = 0; k < h.sink.answers.size(); ++k) EXPECT_EQ(h.sink.timings[k].tag, h.sink.answers[k].tag);
  const auto timing = [&h](std::uint64_t tag) {
    for (const auto& t : h.sink.timings)
      if (t.tag == tag) return t;
    ADD_FAILURE() << "no timing for " << tag;
    return Recorder::Timing{};
  };
  EXPECT_EQ(timing(0).queue_wait, 0ms);
  EXPECT_EQ(timing(0).service, 2ms);
  EXPECT_EQ(timing(1).queue_wait, 2ms);
  EXPECT_EQ(timing(2).queue_wait, 4ms);
  EXPECT_EQ(timing(2).service, 2ms);
  EXPECT_EQ(h.count(Outcome::rejected), 1u);
  EXPECT_EQ(timing(3).queue_wait, 0ms);  // refused at once
  EXPECT_EQ(timing(3).service, 0ms);
  EXPECT_EQ(timing(4).queue_wait, 4ms);
  EXPECT_EQ(timing(4).service, 2ms);
}
