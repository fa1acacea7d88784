// A trace as an absolute schedule: offsets (t_i − t_0)/speed whatever the consumer does, the reorder window,
// gap compression, --from/--to, lanes, --loop.
#include "workload/replay_schedule.h"

#include <gtest/gtest.h>

#include <sstream>

#include <fmt/format.h>

#include "core/clock.h"
#include "workload/jsonl_trace.h"

namespace openloop::workload {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

// A JSONL trace of records at these times (seconds), urls /0, /1, ... in file order.
TraceReader trace(const std::vector<double>& t) {
  std::string text;
  for (std::size_t i = 0; i < t.size(); ++i) text += fmt::format("{{\"t\": {}, \"url\": \"/{}\"}}\n", t[i], i);
  return TraceReader("t.jsonl", std::make_unique<std::istringstream>(text), std::make_unique<JsonlTraceParser>(),
                     false);
}

// Options with some fields set (designated initializers would have to name every field before them).
template <class F>
ReplayOptions with(F&& set) {
  ReplayOptions o;
  set(o);
  return o;
}

struct Arrival {
  Nanos offset;
  std::string target;
};

std::vector<Arrival> all(ReplaySchedule& s) {
  std::vector<Arrival> out;
  for (int guard = 0; guard < 100000; ++guard) {
    auto n = s.next();
    EXPECT_TRUE(n) << n.error().message;
    if (!n || !*n) break;
    out.push_back({**n, s.record().target});
  }
  return out;
}

std::vector<Nanos> offsets(const std::vector<Arrival>& a) {
  std::vector<Nanos> out;
  for (const auto& x : a) out.push_back(x.offset);
  return out;
}

TEST(ReplaySchedule, OffsetsAreTraceTimeOverSpeedFromTheFirstRecord) {
  ReplaySchedule s(trace({10.0, 10.5, 11.0, 13.0}), with([](ReplayOptions& o) { o.speed = 2; }), TracePrivacy());
  EXPECT_EQ(offsets(all(s)), (std::vector<Nanos>{Nanos(0), milliseconds(250), milliseconds(500), milliseconds(1500)}));
  EXPECT_EQ(s.counts().records, 4U);
  EXPECT_EQ(s.last_offset(), milliseconds(1500));
}

TEST(ReplaySchedule, IntendedTimesDoNotDriftWhenTheConsumerIsLate) {
  // A consumer on a manual clock issues what is due; it stalls 3 s after the first record. The records after
  // the stall keep their times (a sleep-between-records replayer would push each of them 3 s later).
  ReplaySchedule s(trace({0, 1, 2, 3, 4}), ReplayOptions{}, TracePrivacy());
  ManualClock clock;
  const SteadyTime start = clock.now();
  std::vector<Nanos> late;
  for (int i = 0; i < 5; ++i) {
    const auto offset = **s.next();
    if (clock.now() < start + offset) clock.set(start + offset);  // waits until due, never longer
    late.push_back(clock.now() - (start + offset));
    if (i == 0) clock.advance(seconds(3));                         // the stall
  }
  EXPECT_EQ(late, (std::vector<Nanos>{Nanos(0), seconds(2), seconds(1), Nanos(0), Nanos(0)}));
}

TEST(ReplaySchedule, SortsRecordsOutOfOrderWithinTheWindow) {
  ReplaySchedule s(trace({0, 2, 1, 3}), with([](ReplayOptions& o) { o.window = seconds(5); }), TracePrivacy());
  const auto a = all(s);
  ASSERT_EQ(a.size(), 4U);
  EXPECT_EQ(a[1].target, "/2");
  EXPECT_EQ(a[1].offset, seconds(1));
  EXPECT_EQ(s.counts().late, 0U);
}

TEST(ReplaySchedule, CountsRecordsBeyondTheWindowAndSendsThemInFileOrder) {
  // Window 1 s: /3 (t = 0.5) is read after t = 3 was released: late, sent at that record's time.
  ReplaySchedule s(trace({0, 3, 5, 0.5, 6}), with([](ReplayOptions& o) { o.window = seconds(1); }), TracePrivacy());
  const auto a = all(s);
  ASSERT_EQ(a.size(), 5U);
  EXPECT_EQ(a[2].target, "/3");
  EXPECT_EQ(a[2].offset, seconds(3));
  EXPECT_EQ(a[3].target, "/2");
  EXPECT_EQ(s.counts().late, 1U);
}

TEST(ReplaySchedule, HoldsAtMostWindowRecords) {
  // Three records at one instant and a cap of 2: the third is read only after one was released, still sorted.
  ReplaySchedule s(trace({1, 0, 0, 2}), with([](ReplayOptions& o) { o.window_records = 2; }), TracePrivacy());
  const auto a = all(s);
  ASSERT_EQ(a.size(), 4U);
  EXPECT_EQ(a[0].target, "/1");
  EXPECT_EQ(a[1].target, "/2");
  EXPECT_EQ(a[2].target, "/0");
}

TEST(ReplaySchedule, CompressesGapsLongerThanMaxGap) {
  ReplaySchedule s(trace({0, 1, 61, 62}), with([](ReplayOptions& o) { o.max_gap = seconds(5); }), TracePrivacy());
  EXPECT_EQ(offsets(all(s)), (std::vector<Nanos>{Nanos(0), seconds(1), seconds(6), seconds(7)}));
  EXPECT_EQ(s.counts().gaps_compressed, 1U);
  EXPECT_EQ(s.counts().compressed, seconds(55));
}

TEST(ReplaySchedule, FromAndToSelectAWindowOfTraceTime) {
  ReplaySchedule s(trace({100, 101, 102, 103, 104, 105, 106, 107}),
                   with([](ReplayOptions& o) { o.from = seconds(2); o.to = seconds(4); }), TracePrivacy());
  const auto a = all(s);
  EXPECT_EQ(offsets(a), (std::vector<Nanos>{Nanos(0), seconds(1), seconds(2)}));
  EXPECT_EQ(a.front().target, "/2");
  EXPECT_EQ(s.counts().outside, 5U);
}

TEST(ReplaySchedule, LanesSplitTheTraceAndAddUpToIt) {
  ReplaySchedule l0(trace({0, 1, 2, 3, 4}), ReplayOptions{}, TracePrivacy(), 0, 2);
  ReplaySchedule l1(trace({0, 1, 2, 3, 4}), ReplayOptions{}, TracePrivacy(), 1, 2);
  EXPECT_EQ(offsets(all(l0)), (std::vector<Nanos>{Nanos(0), seconds(2), seconds(4)}));
  EXPECT_EQ(offsets(all(l1)), (std::vector<Nanos>{seconds(1), seconds(3)}));
  EXPECT_EQ(l0.counts().records, 5U) << "each lane counts the whole trace";
}

TEST(ReplaySchedule, LoopsShiftedByThePeriodUntilTheEnd) {
  ReplaySchedule s(trace({0, 1, 2}), with([](ReplayOptions& o) { o.loop_period = seconds(3); o.end = seconds(8); }), TracePrivacy());
  EXPECT_EQ(offsets(all(s)), (std::vector<Nanos>{Nanos(0), seconds(1), seconds(2), seconds(3), seconds(4),
                                                 seconds(5), seconds(6), seconds(7)}));
  EXPECT_EQ(s.counts().passes, 3U);
}

TEST(ReplaySchedule, AppliesThePrivacyRules) {
  TraceReader r("t.jsonl",
                std::make_unique<std::istringstream>(
                    R"({"t": 0, "url": "/x?k=s", "headers": {"Cookie": "sid=SECRET", "A": "b"}})"),
                std::make_unique<JsonlTraceParser>(), false);
  ReplaySchedule s(std::move(r), ReplayOptions{}, TracePrivacy({}, {"k"}));
  ASSERT_TRUE(s.next()->has_value());
  EXPECT_EQ(s.record().target, "/x?k=REDACTED");
  ASSERT_EQ(s.record().headers.size(), 1U);
  EXPECT_EQ(s.record().headers[0].name, "A");
}

}  // namespace
}  // namespace openloop::workload
