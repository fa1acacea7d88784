// --step-until's stop rule on hand-made intervals: what counts towards the step's window, when the run is
// asked to stop, and how a signal's stop is left alone.
#include <gtest/gtest.h>

#include <atomic>
#include <vector>

#include "hdr/codec.h"
#include "procedures/ramp/ramp_until.h"
#include "results/run_results.h"

using namespace openloop;

namespace {

// One 1-s interval at `start_s` whose response times are spread evenly over 1..`spread_ms` ms, `per_ms`
// samples at each whole millisecond (a histogram with width, so percentile intervals have width too).
results::IntervalResult spread_interval(double start_s, std::int64_t spread_ms, std::int64_t per_ms) {
  results::IntervalResult in;
  in.start_s = start_s;
  in.length_s = 1;
  auto rt = results::make_latency_histogram();
  for (std::int64_t v = 1; v <= spread_ms; ++v) rt.record(v * 1'000'000, per_ms);
  in.counters.intended = in.counters.sent = in.counters.completed = in.counters.ok =
      static_cast<std::uint64_t>(spread_ms * per_ms);
  in.response_time = results::LatencySummary::of(rt);
  in.response_time_hist = hdr::to_compressed_base64(rt);
  return in;
}

results::UntilTarget target(const char* text) {
  auto t = results::parse_until(text);
  EXPECT_TRUE(t) << t.error().message;
  return *t;
}

}  // namespace

TEST(StepUntilWatcher, StopsAtTheFirstIntervalPastTheHoldWhereEveryTargetHolds) {
  // Step measured from 3 s (silence + warm-up), hold 2 s: the earliest end is 5 s. p50 of 1..100 ms with 100
  // samples per interval is known to about ±20 % after one interval and within ±10 % after a few.
  procedures::StepUntilWatcher w({target("p50:±10%")}, 3, 5);
  results::RunResults so_far;
  std::atomic<int> stop{0};
  std::vector<bool> stopped_at;
  for (int k = 0; k < 30 && stop.load() == 0; ++k) {
    so_far.intervals.push_back(spread_interval(k, 100, 1));
    stopped_at.push_back(w.update(so_far, stop));
  }
  ASSERT_TRUE(w.stopped());
  EXPECT_EQ(stop.load(), 1);
  EXPECT_TRUE(stopped_at.back());
  // Not before the hold's end, and the window it was met on ends at a whole interval's end.
  EXPECT_GE(w.met_at_s(), 5.0);
  EXPECT_DOUBLE_EQ(w.met_at_s(), static_cast<double>(stopped_at.size()));
  EXPECT_LT(w.met_at_s(), 30.0);
  // The same target judged on exactly the window's intervals (from 3 s to met_at) holds, one interval fewer
  // does not (or the hold was not over yet): the watcher stopped at the first chance.
  auto window = results::make_latency_histogram();
  for (int k = 3; k < static_cast<int>(w.met_at_s()); ++k) {
    window.add(*hdr::from_compressed_base64(spread_interval(k, 100, 1).response_time_hist.text()));
  }
  const double len = w.met_at_s() - 3;
  EXPECT_TRUE(results::judge_until({target("p50:±10%")}, window, len).front().met);
  if (w.met_at_s() > 5.0) {
    auto shorter = results::make_latency_histogram();
    for (int k = 3; k < static_cast<int>(w.met_at_s()) - 1; ++k) {
      shorter.add(*hdr::from_compressed_base64(spread_interval(k, 100, 1).response_time_hist.text()));
    }
    EXPECT_FALSE(results::judge_until({target("p50:±10%")}, shorter, len - 1).front().met);
  }
}

TEST(StepUntilWatcher, WaitsForTheHoldEvenWhenTheTargetHoldsAtOnce) {
  // Every sample the same: any interval is as narrow as can be from the first interval on.
  procedures::StepUntilWatcher w({target("p99:±5%")}, 0, 4);
  results::RunResults so_far;
  std::atomic<int> stop{0};
  for (int k = 0; k < 3; ++k) {
    so_far.intervals.push_back(spread_interval(k, 1, 500));
    EXPECT_FALSE(w.update(so_far, stop)) << "interval " << k;
  }
  EXPECT_EQ(stop.load(), 0);
  so_far.intervals.push_back(spread_interval(3, 1, 500));
  EXPECT_TRUE(w.update(so_far, stop));
  EXPECT_DOUBLE_EQ(w.met_at_s(), 4.0);
}

TEST(StepUntilWatcher, IgnoresIntervalsBeforeTheStepsWindow) {
  // Before 2 s the samples are spread wide (p50 far from known); from 2 s on they are all equal. Counting the
  // early ones would keep p50 ±1 % out of reach for many intervals; the window's own hold at once.
  procedures::StepUntilWatcher w({target("p50:±1%")}, 2, 4);
  results::RunResults so_far;
  std::atomic<int> stop{0};
  so_far.intervals.push_back(spread_interval(0, 1000, 1));
  so_far.intervals.push_back(spread_interval(1, 1000, 1));
  so_far.intervals.push_back(spread_interval(2, 1, 500));
  so_far.intervals.push_back(spread_interval(3, 1, 500));
  EXPECT_TRUE(w.update(so_far, stop));
  EXPECT_DOUBLE_EQ(w.met_at_s(), 4.0);
}

TEST(StepUntilWatcher, AnImpossibleTargetNeverStopsTheRun) {
  procedures::StepUntilWatcher w({target("p50:±10%"), target("p99.99:±0.1%")}, 0, 2);
  results::RunResults so_far;
  std::atomic<int> stop{0};
  for (int k = 0; k < 40; ++k) {
    so_far.intervals.push_back(spread_interval(k, 100, 1));
    EXPECT_FALSE(w.update(so_far, stop));
  }
  EXPECT_FALSE(w.stopped());
  EXPECT_EQ(stop.load(), 0);
}

TEST(StepUntilWatcher, LeavesASignalsStopAlone) {
  procedures::StepUntilWatcher w({target("p99:±5%")}, 0, 1);
  results::RunResults so_far;
  std::atomic<int> stop{1};  // a signal asked first
  so_far.intervals.push_back(spread_interval(0, 1, 500));
  so_far.intervals.push_back(spread_interval(1, 1, 500));
  EXPECT_FALSE(w.update(so_far, stop));
  EXPECT_FALSE(w.stopped());
  EXPECT_EQ(stop.load(), 1);
}

TEST(StepUntilWatcher, AnUndecodableHistogramEndsTheWatching) {
  procedures::StepUntilWatcher w({target("p99:±5%")}, 0, 1);
  results::RunResults so_far;
  std::atomic<int> stop{0};
  auto in = spread_interval(0, 1, 500);
  in.response_time_hist = std::string("HISTFAAAAnot-base64!");
  so_far.intervals.push_back(in);
  so_far.intervals.push_back(spread_interval(1, 1, 500));
  EXPECT_FALSE(w.update(so_far, stop));
  EXPECT_NE(w.error().find("--step-until: interval at 0s"), std::string::npos) << w.error();
  EXPECT_EQ(stop.load(), 0);
}
