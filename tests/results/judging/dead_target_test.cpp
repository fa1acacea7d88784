// The dead-target watch on synthetic results: when it stops a run, what it leaves in the results.
#include "results/judging/dead_target.h"

#include <gtest/gtest.h>

using namespace openloop::results;

namespace {
RunResults refused(std::uint64_t attempts) {
  RunResults r;
  r.info.model = Model::open;
  r.info.duration_s = 10;
  r.measured_s = 1;
  r.totals.intended = attempts;
  r.totals.connections_opened = attempts;
  r.totals.errors[static_cast<std::size_t>(ErrorKind::connect)] = attempts;
  return r;
}
}  // namespace

TEST(DeadTarget, NeverReachedNeedsAFewConnectFailuresAndNothingElse) {
  EXPECT_FALSE(never_reached(RunResults{}));
  EXPECT_FALSE(never_reached(refused(2)));
  EXPECT_TRUE(never_reached(refused(3)));
  auto answered = refused(50);
  answered.warmup.completed = 1;  // one answer in the warm-up: something listens
  EXPECT_FALSE(never_reached(answered));
  auto tls = refused(50);
  tls.totals.errors[static_cast<std::size_t>(ErrorKind::tls)] = 1;  // a TLS failure: something answered
  EXPECT_FALSE(never_reached(tls));
}

TEST(DeadTarget, StopsTheRunOnceAndLeavesASignalsStopAlone) {
  std::atomic<int> stop{0};
  DeadTargetWatch watch("127.0.0.1:9");
  EXPECT_FALSE(watch.stop_if_dead(refused(1), stop));
  EXPECT_EQ(stop.load(), 0);
  EXPECT_TRUE(watch.stop_if_dead(refused(100), stop));
  EXPECT_EQ(stop.load(), 1);
  EXPECT_FALSE(watch.stop_if_dead(refused(100), stop));  // once
  std::atomic<int> signalled{2};
  DeadTargetWatch late("127.0.0.1:9");
  EXPECT_FALSE(late.stop_if_dead(refused(100), signalled));
  EXPECT_EQ(signalled.load(), 2);
}

TEST(DeadTarget, MarksTheRunAsStoppedForTheTargetNotInterrupted) {
  std::atomic<int> stop{0};
  DeadTargetWatch watch("127.0.0.1:9");
  ASSERT_TRUE(watch.stop_if_dead(refused(100), stop));
  auto r = refused(100);
  r.interrupted = true;  // as the coordinator marks any stop
  r.error_examples.emplace_back("connect", "connect to 127.0.0.1:9: Connection refused");
  watch.mark(r, stop.load());
  EXPECT_FALSE(r.interrupted);
  ASSERT_EQ(r.warnings.size(), 1U);
  EXPECT_EQ(r.warnings[0].rfind("stopped after 1.0 s of 10 s: nothing listens at 127.0.0.1:9 (connection refused)",
                                0),
            0U)
      << r.warnings[0];
  // A signal as well: the run was interrupted.
  auto both = refused(100);
  both.interrupted = true;
  watch.mark(both, 2);
  EXPECT_TRUE(both.interrupted);
}

TEST(DeadTarget, NamesAnUnreachableTargetByItsErrorWhenNotARefusal) {
  DeadTargetWatch watch("10.255.255.1:80");
  auto r = refused(5);
  r.error_examples.emplace_back("connect", "connect timed out after 1s");
  EXPECT_EQ(watch.why(r), "10.255.255.1:80 could not be reached (connect timed out after 1s)");
}
