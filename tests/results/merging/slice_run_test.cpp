// Cutting a window out of a run: every counter and histogram of its intervals adds up (through RunResults::add),
// and goodput is recounted against a deadline shorter than the timeout; throughput counts responses when they arrived.
#include <gtest/gtest.h>

#include "results/merging/slice_run.h"
#include "results/run_builders.h"

namespace {

using namespace run_builders;
using namespace std::chrono_literals;

/// The run of `steady(0, 5, 100, 5 ms)` with two attempts per request and one session ending per interval.
results::RunResults run_with_attempts_and_sessions() {
  results::RunResults r = run_of(steady(0, 5, 100, 5'000'000));
  r.info.request_names = {"home"};
  for (std::size_t k = 0; k < r.intervals.size(); ++k) {
    auto& in = r.intervals.resident(k);
    auto attempts = results::make_latency_histogram(), sessions = results::make_latency_histogram();
    attempts.record(2'000'000, 200);
    sessions.record(40'000'000, 1);
    in.attempt_time_hist = hdr::to_compressed_base64(attempts);
    in.session_time_hist = hdr::to_compressed_base64(sessions);
    in.flows.sessions_intended = 1;
  }
  return r;
}

TEST(SliceRun, AWindowAddsUpEveryCounterAndHistogramOfItsIntervals) {
  results::GoodputDeadline goodput{0ns, 1s};
  auto w = results::slice_run(run_with_attempts_and_sessions(), 1, 4, goodput);
  ASSERT_TRUE(w) << w.error().message;
  EXPECT_EQ(w->intervals.size(), 3U);
  EXPECT_DOUBLE_EQ(w->intervals.front().start_s, 0.0);  // re-based to the window
  EXPECT_DOUBLE_EQ(w->measured_s, 3.0);
  EXPECT_EQ(w->totals.intended, 300U);
  EXPECT_EQ(w->response_time.total_count(), 300);
  EXPECT_EQ(w->service_time.total_count(), 300);
  EXPECT_EQ(w->send_lateness.total_count(), 300);
  EXPECT_EQ(w->attempt_time.total_count(), 600);  // left out before slices went through RunResults::add
  EXPECT_EQ(w->session_time.total_count(), 3);
  EXPECT_EQ(w->flows.sessions_intended, 3U);
  ASSERT_EQ(w->by_request.size(), 1U);
  EXPECT_EQ(w->by_request.front().counters.ok, 300U);
  EXPECT_TRUE(goodput.exact);
}

TEST(SliceRun, ADeadlineRecountsGoodputAndNamesABadHistogram) {
  auto specs = steady(0, 2, 100, 5'000'000);
  specs[1].rt_ns = 50'000'000;  // the second second answered after 50 ms: ok, but past a 10-ms deadline
  results::GoodputDeadline goodput{10ms, 1s};
  auto w = results::slice_run(run_of(specs), 0, 2, goodput);
  ASSERT_TRUE(w) << w.error().message;
  EXPECT_EQ(w->totals.completed, 200U);
  EXPECT_EQ(w->totals.ok, 100U);
  EXPECT_EQ(w->intervals[1].counters.ok, 0U);
  EXPECT_TRUE(goodput.exact);

  results::RunResults bad = run_of(specs);
  bad.intervals.resident(1).attempt_time_hist = "HISTFAAAAnotbase64!!";
  auto e = results::slice_run(bad, 0, 2, goodput);
  ASSERT_FALSE(e);
  EXPECT_NE(e.error().message.find("interval at 1s: attempt_time histogram"), std::string::npos)
      << e.error().message;
}

// Responses to requests intended in [0, 1) that took 2.5 s arrive over [2.5, 3.5): half of them in [2, 3).
TEST(CompletionsPerSecond, CountsResponsesWhenTheyArrived) {
  auto run = run_of({IntervalSpec{0, 1, 100, 0, 0, 0, 2'500'000'000, 0, 10'000'000'000}});
  run.intervals.push_back(interval(IntervalSpec{1, 1, 0, 0, 0, 0}));
  run.intervals.push_back(interval(IntervalSpec{2, 1, 0, 0, 0, 0}));
  const auto per_s = results::completions_per_second(run, 2, 3, std::chrono::seconds(10));
  ASSERT_TRUE(per_s.has_value());
  EXPECT_NEAR(*per_s, 50, 0.5);
  // Timeouts are recorded at the timeout and are not responses.
  auto timeouts = run_of({IntervalSpec{0, 1, 0, 0, 100, 0}});
  EXPECT_NEAR(*results::completions_per_second(timeouts, 0, 3, std::chrono::seconds(1)), 0, 1e-9);
}

}  // namespace
