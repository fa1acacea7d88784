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
