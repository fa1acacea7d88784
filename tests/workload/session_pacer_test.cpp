// Replayed sessions' rule on a manual clock: a record waits for its session's previous response, keeps its
// recorded spacing after a late one, and never holds back another session's records.
#include "workload/session_pacer.h"

#include <gtest/gtest.h>

#include "core/clock.h"

namespace openloop::workload {
namespace {

using std::chrono::milliseconds;
using Kind = SessionPacer::Arrival::Kind;

// Offsets from the run's start, as the worker gives them, read from a manual clock that only tests advance.
struct Replay {
  ManualClock clock;
  SessionPacer pacer{1000};
  Nanos now() const { return clock.now().time_since_epoch(); }
};

TEST(SessionPacer, ARecordOfAnIdleSessionGoesAtItsAbsoluteTime) {
  Replay r;
  r.clock.advance(milliseconds(100));
  const auto a = r.pacer.arrive(7, milliseconds(100), r.now());
  EXPECT_EQ(a.kind, Kind::send);
  EXPECT_EQ(a.due, milliseconds(100));
  // Its response before the next record's time: the next one goes on time too, and nothing counts as delayed.
  r.clock.advance(milliseconds(20));
  EXPECT_EQ(r.pacer.done(a.session, r.now()), Nanos::max());
  r.clock.advance(milliseconds(80));
  const auto b = r.pacer.arrive(7, milliseconds(200), r.now());
  EXPECT_EQ(b.kind, Kind::send);
  EXPECT_EQ(b.due, milliseconds(200));
  EXPECT_EQ(r.pacer.counts().delayed, 0U);
}

TEST(SessionPacer, TheNextRecordWaitsForALateResponseAndAnotherSessionDoesNot) {
  Replay r;
  const auto first = r.pacer.arrive(1, Nanos(0), r.now());
  ASSERT_EQ(first.kind, Kind::send);
  // The response stalls past the session's next record (due at 100 ms): it is held, with no wake-up time.
  r.clock.advance(milliseconds(100));
  const auto held = r.pacer.arrive(1, milliseconds(100), r.now());
  EXPECT_EQ(held.kind, Kind::hold);
  EXPECT_EQ(held.due, Nanos::max());
  EXPECT_EQ(r.pacer.take(held.session, r.now()).slot, SessionPacer::k_none);  // in flight: not yet
  // Another session's record at the same moment goes at once.
  const auto other = r.pacer.arrive(2, milliseconds(100), r.now());
  EXPECT_EQ(other.kind, Kind::send);
  EXPECT_EQ(other.due, milliseconds(100));
  // The response at 250 ms: the held record is due then, and is sent with that as its intended time.
  r.clock.advance(milliseconds(150));
  EXPECT_EQ(r.pacer.done(first.session, r.now()), milliseconds(250));
  const auto t = r.pacer.take(first.session, r.now());
  EXPECT_EQ(t.slot, held.slot);
  EXPECT_EQ(t.at, milliseconds(100));
  EXPECT_EQ(t.due, milliseconds(250));
  EXPECT_EQ(r.pacer.counts().delayed, 1U);
  EXPECT_EQ(r.pacer.counts().delay, milliseconds(150));
}

TEST(SessionPacer, AfterALateResponseTheSessionKeepsItsRecordedSpacing) {
  Replay r;
  const auto a = r.pacer.arrive(1, Nanos(0), r.now());
  r.clock.advance(milliseconds(100));
  const auto b = r.pacer.arrive(1, milliseconds(100), r.now());  // held: a is in flight
  ASSERT_EQ(b.kind, Kind::hold);
  r.clock.advance(milliseconds(50));  // a's response at 150 ms
  ASSERT_EQ(r.pacer.done(a.session, r.now()), milliseconds(150));
  ASSERT_EQ(r.pacer.take(a.session, r.now()).due, milliseconds(150));  // 50 ms late: the session's lag
  r.clock.advance(milliseconds(10));
  EXPECT_EQ(r.pacer.done(a.session, r.now()), Nanos::max());  // b's response at 160 ms, fast
  // c was recorded 100 ms after b: it goes 100 ms after b went (250 ms), not at its absolute 200 ms.
  r.clock.advance(milliseconds(40));
  const auto c = r.pacer.arrive(1, milliseconds(200), r.now());
  EXPECT_EQ(c.kind, Kind::hold);
  EXPECT_EQ(c.due, milliseconds(250));
  EXPECT_EQ(r.pacer.take(c.session, r.now()).slot, SessionPacer::k_none);  // not due at 200 ms
  r.clock.advance(milliseconds(50));
  const auto t = r.pacer.take(c.session, r.now());
  EXPECT_EQ(t.slot, c.slot);
  EXPECT_EQ(t.due, milliseconds(250));
  EXPECT_EQ(r.pacer.counts().delayed, 2U);
  EXPECT_EQ(r.pacer.counts().delay, milliseconds(100));
}

TEST(SessionPacer, HeldRecordsGoInOrderEachAfterTheResponseBeforeIt) {
  Replay r;
  const auto a = r.pacer.arrive(5, Nanos(0), r.now());
  r.clock.advance(milliseconds(30));
  const auto b = r.pacer.arrive(5, milliseconds(10), r.now());
  const auto c = r.pacer.arrive(5, milliseconds(20), r.now());
  ASSERT_EQ(b.kind, Kind::hold);
  ASSERT_EQ(c.kind, Kind::hold);
  EXPECT_EQ(r.pacer.held(), 2U);
  r.pacer.done(a.session, r.now());
  EXPECT_EQ(r.pacer.take(a.session, r.now()).slot, b.slot);
  EXPECT_EQ(r.pacer.take(a.session, r.now()).slot, SessionPacer::k_none);  // b in flight: c waits
  r.clock.advance(milliseconds(5));
  // b went 20 ms after its time: c, recorded 10 ms after b, goes 10 ms after b went (40 ms), though b's response
  // came at 35 ms.
  EXPECT_EQ(r.pacer.done(a.session, r.now()), milliseconds(40));
  EXPECT_EQ(r.pacer.take(a.session, r.now()).slot, SessionPacer::k_none);
  r.clock.advance(milliseconds(5));
  const auto t = r.pacer.take(a.session, r.now());
  EXPECT_EQ(t.slot, c.slot);
  EXPECT_EQ(t.due, milliseconds(40));
  EXPECT_EQ(r.pacer.held(), 0U);
  EXPECT_EQ(r.pacer.counts().held_peak, 2U);
}

TEST(SessionPacer, SessionsAreForgottenWhenIdleWithoutLagSoMemoryFollowsTheOpenOnes) {
  Replay r;
  for (std::uint64_t key = 1; key <= 100000; ++key) {
    const auto a = r.pacer.arrive(key, r.now(), r.now());
    ASSERT_EQ(a.kind, Kind::send);
    r.clock.advance(milliseconds(1));
    r.pacer.done(a.session, r.now());
  }
  EXPECT_EQ(r.pacer.open_sessions(), 0U);
  EXPECT_EQ(r.pacer.counts().sessions_peak, 1U);
}

// A million short sessions, one a millisecond, each delayed once by a late response (so each keeps a lag): a
// session is forgotten once a record k_visit_gap after its last has come, so the tables stop growing once a
// visit gap's worth of sessions (60,000) is held, and the millionth session costs no more than the 200,000th.
TEST(SessionPacer, LaggedSessionsAreForgottenAfterAVisitGapSoMemoryStaysFlat) {
  using std::chrono::microseconds;
  Replay r;
  const auto one_session = [&](std::uint64_t n) {
    const Nanos t = milliseconds(n);
    // SplitMix64's finalizer, as the worker's key hashes end (workload/session_key.cpp): well spread.
    std::uint64_t key = n * 0x9E3779B97F4A7C15ULL;
    key = (key ^ (key >> 30)) * 0xBF58476D1CE4E5B9ULL;
    key = (key ^ (key >> 27)) * 0x94D049BB133111EBULL;
    key ^= key >> 31;
    r.clock.advance(t - r.now());
    const auto a = r.pacer.arrive(key, t, r.now());
    ASSERT_EQ(a.kind, Kind::send);
    r.clock.advance(microseconds(100));
    ASSERT_EQ(r.pacer.arrive(key, t + microseconds(100), r.now()).kind, Kind::hold);
    r.clock.advance(microseconds(200));  // the first response, 200 µs after the second record's time
    r.pacer.done(a.session, r.now());
    ASSERT_EQ(r.pacer.take(a.session, r.now()).due, t + microseconds(300));
    r.clock.advance(microseconds(100));
    r.pacer.done(a.session, r.now());
  };
  const std::uint64_t visit_ms =
      static_cast<std::uint64_t>(std::chrono::duration_cast<milliseconds>(SessionPacer::k_visit_gap).count());
  for (std::uint64_t n = 1; n <= 200000; ++n) one_session(n);
  const std::size_t footprint = r.pacer.footprint_bytes();
  EXPECT_LE(r.pacer.open_sessions(), visit_ms + 1);
  for (std::uint64_t n = 200001; n <= 1000000; ++n) one_session(n);
  EXPECT_EQ(r.pacer.counts().delayed, 1000000U);
  EXPECT_LE(r.pacer.open_sessions(), visit_ms + 1);
  EXPECT_GE(r.pacer.open_sessions(), visit_ms - 1) << "a session within the visit gap keeps its lag";
  EXPECT_LE(r.pacer.counts().sessions_peak, visit_ms + 2);
  EXPECT_EQ(r.pacer.footprint_bytes(), footprint);
  EXPECT_LT(footprint, std::size_t{16} << 20);
}

TEST(SessionPacer, ARecordAVisitGapAfterItsSessionsLastStartsWithoutTheLag) {
  Replay r;
  const auto a = r.pacer.arrive(3, Nanos(0), r.now());
  const auto b = r.pacer.arrive(3, Nanos(0), r.now());
  ASSERT_EQ(b.kind, Kind::hold);
  r.clock.advance(milliseconds(500));
  r.pacer.done(a.session, r.now());
  ASSERT_EQ(r.pacer.take(a.session, r.now()).due, milliseconds(500));  // lag 500 ms
  r.pacer.done(a.session, r.now());
  // Within the gap the lag holds: a record 59 s after goes 500 ms late.
  const Nanos within = SessionPacer::k_visit_gap - std::chrono::seconds(1);
  r.clock.advance(within - r.now());
  const auto c = r.pacer.arrive(3, within, r.now());
  EXPECT_EQ(c.kind, Kind::hold);
  EXPECT_EQ(c.due, within + milliseconds(500));
  r.clock.advance(milliseconds(500));
  ASSERT_EQ(r.pacer.take(c.session, r.now()).due, within + milliseconds(500));
  r.pacer.done(c.session, r.now());
  // A record a whole gap after the last one starts a new visit: on its absolute time, and the session is
  // forgotten once another record's time shows the gap has passed.
  const Nanos next = within + SessionPacer::k_visit_gap;
  r.clock.advance(next - r.now());
  const auto d = r.pacer.arrive(3, next, r.now());
  EXPECT_EQ(d.kind, Kind::send);
  EXPECT_EQ(d.due, next);
  r.pacer.done(d.session, r.now());
  EXPECT_EQ(r.pacer.open_sessions(), 0U);
  EXPECT_EQ(r.pacer.counts().delayed, 2U);
}

TEST(SessionPacer, ManySessionsOpenAtOnceAreEachFoundAgain) {
  Replay r{ManualClock(), SessionPacer(10000)};
  std::vector<std::uint32_t> ids;
  for (std::uint64_t key = 1; key <= 5000; ++key) ids.push_back(r.pacer.arrive(key * 7919, Nanos(0), r.now()).session);
  EXPECT_EQ(r.pacer.open_sessions(), 5000U);
  // Every open session is busy: a second record of each is held in its own session.
  r.clock.advance(milliseconds(1));
  for (std::uint64_t key = 1; key <= 5000; ++key) {
    const auto a = r.pacer.arrive(key * 7919, milliseconds(1), r.now());
    ASSERT_EQ(a.kind, Kind::hold);
    ASSERT_EQ(a.session, ids[key - 1]);
  }
  // Half of them end and are forgotten once their held record has gone and been answered.
  for (std::uint64_t key = 1; key <= 5000; key += 2) {
    r.pacer.done(ids[key - 1], r.now());
    ASSERT_NE(r.pacer.take(ids[key - 1], r.now()).slot, SessionPacer::k_none);
    r.pacer.done(ids[key - 1], r.now());
  }
  EXPECT_EQ(r.pacer.open_sessions(), 2500U);
  for (std::uint64_t key = 2; key <= 5000; key += 2) {
    const auto a = r.pacer.arrive(key * 7919, milliseconds(1), r.now());
    ASSERT_EQ(a.session, ids[key - 1]) << key;  // still found after the others' deletion
  }
}

TEST(SessionPacer, BeyondItsHeldRecordsARecordIsRefused) {
  Replay r;
  SessionPacer p(2);
  p.arrive(1, Nanos(0), r.now());
  EXPECT_EQ(p.arrive(1, Nanos(0), r.now()).kind, Kind::hold);
  EXPECT_EQ(p.arrive(1, Nanos(0), r.now()).kind, Kind::hold);
  EXPECT_EQ(p.arrive(1, Nanos(0), r.now()).kind, Kind::full);
  EXPECT_EQ(p.arrive(2, Nanos(0), r.now()).kind, Kind::send);  // an idle session still goes
  EXPECT_EQ(p.counts().overflow, 1U);
  std::size_t drained = 0;
  p.drain([&](std::uint32_t, Nanos) { ++drained; });
  EXPECT_EQ(drained, 2U);
  EXPECT_EQ(p.held(), 0U);
}

}  // namespace
}  // namespace openloop::workload
