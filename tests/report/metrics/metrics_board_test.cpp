// The metrics endpoint's snapshots: a scrape holds an immutable snapshot that later publications never touch,
// a publisher never waits for a reader, and what a reader sees is always one whole publication (never a mix),
// in publication order. Plus the classic buckets' one-pass counts, equal to counting per bound.
#include "report/metrics/metrics_board.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <thread>

#include "core/rng.h"
#include "results/recording/interval_stats.h"

namespace openloop::report {
namespace {

MetricsContext context(const std::string& run_id) { return {run_id, "", {"GET /"}, 100, {}, {}}; }

MetricsState state_of(std::uint64_t k) {
  MetricsState s;
  s.totals.intended = 10 * k;
  s.totals.sent = 10 * k;
  s.in_flight = k;
  if (k > 0) s.response_time.record(1'000'000, static_cast<std::int64_t>(k));
  return s;
}

std::uint64_t counter(const std::vector<MetricFamily>& families, const std::string& name) {
  for (const MetricFamily& f : families) {
    if (f.name == name) return static_cast<std::uint64_t>(f.series.at(0).value);
  }
  ADD_FAILURE() << name << " missing";
  return 0;
}

TEST(MetricsBoard, AHeldSnapshotStaysAsItWasWhileThePublisherGoesOn) {
  MetricsBoard board({context("r1")});
  board.update(0, state_of(1));
  // A scrape holding the snapshot (as for a render) while the same thread publishes: a publisher that waited
  // for readers would never return here.
  const std::shared_ptr<const MetricsSnapshot> held = board.latest();
  const std::vector<MetricFamily> before = held->families();
  for (std::uint64_t k = 2; k <= 50; ++k) board.update(0, state_of(k));
  board.set_extra({{"openloop_extra", MetricType::gauge, "x", {{{}, 1, nullptr}}}});
  EXPECT_EQ(held->parts.at(0).state->totals.sent, 10u);
  EXPECT_EQ(held->parts.at(0).state->updates, 1u);
  EXPECT_EQ(held->parts.at(0).state->response_time.total_count(), 1);
  EXPECT_EQ(before.size(), held->families().size());
  EXPECT_EQ(counter(held->families(), "openloop_requests_sent_total"), 10u);
  EXPECT_EQ(counter(before, "openloop_requests_sent_total"), 10u);
  const std::shared_ptr<const MetricsSnapshot> now = board.latest();
  EXPECT_EQ(now->parts.at(0).state->totals.sent, 500u);
  EXPECT_EQ(now->parts.at(0).state->updates, 50u);
  EXPECT_EQ(now->version, held->version + 50);
  EXPECT_EQ(counter(now->families(), "openloop_extra"), 1u);
}

TEST(MetricsBoard, UnchangedPartsAreSharedNotCopied) {
  MetricsBoard board({context("a"), context("b")});
  board.update(0, state_of(1));
  const auto first = board.latest();
  board.update(1, state_of(2));
  const auto second = board.latest();
  EXPECT_EQ(first->parts[0].state.get(), second->parts[0].state.get());
  EXPECT_EQ(first->parts[0].context.get(), second->parts[0].context.get());
  EXPECT_NE(first->parts[1].state.get(), second->parts[1].state.get());
}

TEST(MetricsBoard, APartAddedLaterShowsOnceItHasAState) {
  MetricsBoard board;
  const std::size_t step = board.add_part(context("ramp"));
  EXPECT_EQ(step, 0u);
  EXPECT_TRUE(board.latest()->families().empty());  // a scrape now would show the step's counters at 0
  board.update(step, state_of(3));
  EXPECT_EQ(counter(board.latest()->families(), "openloop_requests_sent_total"), 30u);
  // An initial part shows from the first scrape, at 0.
  MetricsBoard run({context("run")});
  EXPECT_EQ(counter(run.latest()->families(), "openloop_requests_sent_total"), 0u);
}

// Readers on other threads while the publisher goes on: every snapshot is one whole publication (its counters,
// gauge and histogram agree with its update count) and a reader's successive snapshots never go back. Run under
// TSan (make test-sanitize) this also checks there is no data race between render and publish.
TEST(MetricsBoard, ReadersSeeWholePublicationsInOrder) {
  MetricsBoard board({context("r1")});
  constexpr std::uint64_t k_updates = 2000;
  std::atomic<bool> done{false};
  std::atomic<int> torn{0}, backwards{0};
  std::atomic<std::uint64_t> reads{0};
  const auto reader = [&] {
    std::uint64_t last = 0;
    // Bounded: the publisher's 2000 updates, then one more read; at most 10^6 reads in all.
    for (int i = 0; i < 1'000'000; ++i) {
      const bool finished = done.load();
      const auto snap = board.latest();
      const MetricsState& s = *snap->parts.at(0).state;
      const std::uint64_t k = s.updates;
      if (k < last) ++backwards;
      last = k;
      if (s.totals.sent != 10 * k || s.in_flight != k ||
          s.response_time.total_count() != static_cast<std::int64_t>(k)) {
        ++torn;
      }
      ++reads;
      if (finished) break;
    }
  };
  std::thread r1(reader), r2(reader);
  for (std::uint64_t k = 1; k <= k_updates; ++k) board.update(0, state_of(k));
  done = true;
  r1.join();
  r2.join();
  EXPECT_EQ(torn.load(), 0);
  EXPECT_EQ(backwards.load(), 0);
  EXPECT_GE(reads.load(), 2u);
  EXPECT_EQ(board.latest()->parts[0].state->updates, k_updates);
}

TEST(ClassicBucketCounts, EqualCountingEachBoundOnItsOwn) {
  hdr::Histogram h = results::make_latency_histogram();
  Rng rng(11);
  // Values from 1 ns to ~100 s, log-uniform, and exactly at and around every bound.
  for (int i = 0; i < 20000; ++i) h.record(static_cast<std::int64_t>(std::exp(rng.uniform01() * std::log(1e11))));
  for (double le : classic_bucket_bounds()) {
    const auto ns = static_cast<std::int64_t>(le * 1e9);
    for (std::int64_t d : {-1'000, -1, 0, 1, 1'000}) h.record(ns + d, 3);
  }
  const std::vector<std::uint64_t> counts = classic_bucket_counts(h);
  ASSERT_EQ(counts.size(), classic_bucket_bounds().size());
  for (std::size_t k = 0; k < counts.size(); ++k) {
    EXPECT_EQ(counts[k], count_at_most(h, classic_bucket_bounds()[k])) << classic_bucket_bounds()[k];
  }
  EXPECT_LT(counts.back(), static_cast<std::uint64_t>(h.total_count()));  // values beyond 10 s exist
  const hdr::Histogram empty = results::make_latency_histogram();
  for (std::uint64_t c : classic_bucket_counts(empty)) EXPECT_EQ(c, 0u);
}

}  // namespace
}  // namespace openloop::report
