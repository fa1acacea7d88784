// A trace as an absolute schedule: offsets (t_i − t_0)/speed whatever the consumer does, the reorder window,
// gap compression, --from/--to, lanes, --loop.
#include "workload/replay_schedule.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "core/clock.h"
#include "workload/jsonl_trace.h"
#include "workload/shard.h"

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

// The records each lane of `shards` (weights) × `workers` takes, by index in the trace (its url /i).
std::vector<std::vector<std::string>> split(const std::string& text, const std::vector<std::uint64_t>& weights,
                                            unsigned workers, const ReplayOptions& options = {}) {
  std::vector<std::vector<std::string>> out;
  for (unsigned shard = 0; shard < weights.size(); ++shard) {
    for (unsigned w = 0; w < workers; ++w) {
      TraceReader r("t.jsonl", std::make_unique<std::istringstream>(text), std::make_unique<JsonlTraceParser>(),
                    false);
      ReplaySchedule s(std::move(r), options, TracePrivacy(), ReplayLane{stripe_owners(weights), shard, w, workers});
      out.emplace_back();
      for (const Arrival& a : all(s)) out.back().push_back(a.target);
    }
  }
  return out;
}

std::string numbered(int n, const std::string& headers = "") {
  std::string text;
  for (int i = 0; i < n; ++i)
    text += fmt::format("{{\"t\": {}, \"url\": \"/{}\"{}}}\n", i, i, fmt::format(fmt::runtime(headers), i % 7));
  return text;
}

TEST(ReplaySchedule, EqualShardsSplitAsRecordIModNThenTheShardsWorkers) {
  // Shard I of N takes record i with i mod N = I, and its worker w those with (i div N) mod workers = w (the
  // split before weights, kept).
  const auto lanes = split(numbered(12), {1, 1}, 2);
  EXPECT_EQ(lanes[0], (std::vector<std::string>{"/0", "/4", "/8"}));
  EXPECT_EQ(lanes[1], (std::vector<std::string>{"/2", "/6", "/10"}));
  EXPECT_EQ(lanes[2], (std::vector<std::string>{"/1", "/5", "/9"}));
  EXPECT_EQ(lanes[3], (std::vector<std::string>{"/3", "/7", "/11"}));
}

TEST(ReplaySchedule, WeightedShardsTakeTheirShareAndPartitionTheTrace) {
  const auto lanes = split(numbered(300), {2, 1}, 2);
  std::set<std::string> seen;
  std::size_t total = 0;
  for (const auto& lane : lanes) {
    total += lane.size();
    seen.insert(lane.begin(), lane.end());
  }
  EXPECT_EQ(total, 300U);
  EXPECT_EQ(seen.size(), 300U) << "every record exactly once";
  EXPECT_EQ(lanes[0].size() + lanes[1].size(), 200U) << "weight 2 of 3";
  EXPECT_EQ(lanes[2].size() + lanes[3].size(), 100U);
  EXPECT_EQ(lanes[0].size(), 100U) << "a shard's workers split its records evenly";
}

TEST(ReplaySchedule, ASessionsRecordsAllGoToOneLaneAndIndependentOnesAreSpread) {
  // Records i carry session "u{i mod 7}" in a header; 70 of them, plus 20 without one.
  std::string text = numbered(70, R"(, "headers": {{"X-User": "u{}"}})");
  for (int i = 70; i < 90; ++i) text += fmt::format("{{\"t\": {}, \"url\": \"/{}\"}}\n", i, i);
  ReplayOptions o;
  o.session_key = *parse_session_key("header:x-user", "test");
  const auto lanes = split(text, {2, 1}, 2, o);
  std::size_t total = 0;
  std::map<int, std::set<std::size_t>> lanes_of_session;
  for (std::size_t l = 0; l < lanes.size(); ++l) {
    total += lanes[l].size();
    for (const auto& target : lanes[l]) {
      const int i = std::stoi(target.substr(1));
      if (i < 70) lanes_of_session[i % 7].insert(l);
    }
  }
  EXPECT_EQ(total, 90U);
  ASSERT_EQ(lanes_of_session.size(), 7U);
  for (const auto& [session, in] : lanes_of_session) EXPECT_EQ(in.size(), 1U) << "session u" << session;
}

TEST(SessionKey, ReadsTheNamedValueBeforePrivacyAndHashesIt) {
  TraceRecord r;
  r.session = "10.0.0.1";
  r.headers = {{"Cookie", "a=1; sid=SECRET ; b=2"}, {"X-User", "alice"}};
  const auto hash = [&](std::string_view key) { return session_hash(*parse_session_key(key, "t"), r); };
  EXPECT_NE(hash("ip"), 0U);
  EXPECT_EQ(hash("ip"), hash("field"));
  EXPECT_EQ(hash("header:x-user"), hash("header:X-User"));
  EXPECT_NE(hash("header:x-user"), hash("ip"));
  EXPECT_NE(hash("cookie:sid"), 0U);
  TraceRecord v;
  v.headers = {{"V", "SECRET"}};
  EXPECT_EQ(hash("cookie:sid"), session_hash(*parse_session_key("header:v", "t"), v)) << "the value alone counts";
  EXPECT_EQ(hash("cookie:none"), 0U) << "no such cookie: independent";
  EXPECT_EQ(hash("header:none"), 0U);
  EXPECT_EQ(session_hash(SessionKey{}, r), 0U);
  r.session.clear();
  EXPECT_EQ(hash("ip"), 0U);
}

TEST(SessionKey, RefusesWhatItDoesNotKnowNamingTheFlag) {
  for (const char* bad : {"", "cookie", "header:", "header:a b", "user", "IP"}) {
    const auto k = parse_session_key(bad, "--session-key");
    ASSERT_FALSE(k) << bad;
    EXPECT_NE(k.error().message.find("--session-key"), std::string::npos);
    EXPECT_NE(k.error().message.find("header:NAME"), std::string::npos);
  }
  EXPECT_EQ(parse_session_key("cookie:sid", "f")->text(), "cookie:sid");
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
