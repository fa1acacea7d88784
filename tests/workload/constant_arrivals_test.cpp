// Tests for constant arrivals: exact grid times, no drift, stalls, sharding, ramps, parsing the kind.
#include "workload/arrival_schedule.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/clock.h"

using namespace openloop;
using namespace openloop::workload;
using namespace std::chrono_literals;

namespace {

std::vector<Nanos> drain(ArrivalSchedule schedule) {
  std::vector<Nanos> times;
  while (auto t = schedule.next()) times.push_back(*t);
  return times;
}

std::vector<Nanos> drain(const RateProfile& profile, unsigned shard = 0, unsigned shards = 1) {
  return drain(ArrivalSchedule(profile, ArrivalKind::constant, 1, shard, shards));
}

RateProfile parse(std::string_view text) {
  return *RateProfile::parse_stages(text, "--stages");
}

std::ptrdiff_t count_in(const std::vector<Nanos>& times, Nanos from, Nanos to) {
  return std::count_if(times.begin(), times.end(), [&](Nanos t) { return t >= from && t < to; });
}

}  // namespace

TEST(ConstantArrivals, IntendedTimesAreExactMultiplesOfTheInterval) {
  ArrivalSchedule schedule(RateProfile::constant(500.0, 10s), ArrivalKind::constant, 1, 0, 1);
  EXPECT_EQ(schedule.peek(), 0ms);
  EXPECT_EQ(schedule.next(), 0ms);
  EXPECT_EQ(schedule.next(), 2ms);
  EXPECT_EQ(schedule.peek(), 4ms);
  EXPECT_EQ(schedule.peek(), 4ms);
  EXPECT_EQ(schedule.next(), 4ms);
  EXPECT_EQ(schedule.next(), 6ms);
  EXPECT_EQ(schedule.issued(), 4U);
  EXPECT_DOUBLE_EQ(schedule.expected_total(), 5000.0);
  Nanos last{0};
  while (auto t = schedule.next()) last = *t;
  EXPECT_EQ(last, 9998ms);  // the run covers [0, 10 s): the arrival due at 10 s is past the end
  EXPECT_EQ(schedule.issued(), 5000U);
  EXPECT_EQ(schedule.next(), std::nullopt);
  EXPECT_EQ(schedule.peek(), std::nullopt);
  EXPECT_EQ(schedule.issued(), 5000U);
}

TEST(ConstantArrivals, NoCumulativeDriftOverAMillionArrivals) {
  ArrivalSchedule schedule(RateProfile::constant(500.0, 2001s), ArrivalKind::constant, 1, 0, 1);
  for (std::int64_t k = 0; k < 1'000'000; ++k) {
    const auto t = schedule.next();
    ASSERT_TRUE(t);
    ASSERT_EQ(*t, Nanos(k * 2'000'000)) << "arrival " << k;
  }
  EXPECT_EQ(schedule.next(), 2000s);  // arrival 10^6, exactly
}

TEST(ConstantArrivals, NonIntegerIntervalsRoundEachArrivalToItsNearestNanosecond) {
  // 3/s: arrival k is due at k/3 s; each is rounded on its own, so rounding never accumulates.
  ArrivalSchedule schedule(RateProfile::constant(3.0, 400'000s), ArrivalKind::constant, 1, 0, 1);
  for (std::int64_t k = 0; k < 1'000'000; ++k) {
    const std::int64_t exact_nearest = (k * 2'000'000'000 + 3) / 6;
    ASSERT_EQ(schedule.next(), Nanos(exact_nearest)) << "arrival " << k;
  }
}

TEST(ConstantArrivals, IntendedTimesDoNotDriftAfterStall) {
  const RateProfile profile = RateProfile::constant(500.0, 2s);
  ManualClock clock;
  const SteadyTime start = clock.now();
  ArrivalSchedule schedule(profile, ArrivalKind::constant, 1, 0, 1);
  struct Sent {
    Nanos intended;
    Nanos lateness;
  };
  std::vector<Sent> sent;
  // A consumer that sends everything already due, as a worker's event loop does after each wake-up.
  auto send_due = [&] {
    for (auto due = schedule.peek(); due && start + *due <= clock.now(); due = schedule.peek()) {
      schedule.next();
      sent.push_back({*due, clock.now() - (start + *due)});
    }
  };
  auto poll_on_time_while = [&](auto condition) {
    while (schedule.peek() && condition()) {
      clock.set(start + *schedule.peek());
      send_due();
    }
  };
  poll_on_time_while([&] { return sent.size() < 100; });  // 0 .. 198 ms, on time
  ASSERT_EQ(sent.size(), 100U);
  ASSERT_EQ(clock.now() - start, 198ms);

  clock.advance(300ms);  // the generator stalls once and polls late, at 498 ms
  send_due();
  ASSERT_EQ(sent.size(), 250U);  // the backlog: arrivals due at 200 .. 498 ms
  for (std::size_t k = 100; k < 250; ++k) {
    EXPECT_EQ(sent[k].intended, Nanos(static_cast<std::int64_t>(k) * 2'000'000));
    EXPECT_EQ(sent[k].lateness, 498ms - sent[k].intended);  // 298 ms down to 0: what users saw
  }
  EXPECT_EQ(schedule.peek(), 500ms);  // the cadence continues on the original grid

  poll_on_time_while([] { return true; });
  const std::vector<Nanos> undisturbed = drain(profile);
  ASSERT_EQ(sent.size(), undisturbed.size());
  for (std::size_t k = 0; k < sent.size(); ++k) {
    EXPECT_EQ(sent[k].intended, undisturbed[k]);
    if (k >= 250) {
      EXPECT_EQ(sent[k].lateness, 0ns);
    }
  }
}

TEST(ConstantArrivals, ShardUnionEqualsTheUnshardedScheduleExactly) {
  const std::vector<RateProfile> profiles = {
      RateProfile::constant(500.0, 10s),
      RateProfile::constant(333.3, 7s),
      RateProfile::constant(0.7, 100s),
      parse("10s:1000/s"),
      parse("5s:1000/s,2s:37.5/s,0s:250/s,3s:250/s,4s:0/s"),
      parse("30s:100/s,1m:500/s,30s:0/s"),
  };
  for (std::size_t p = 0; p < profiles.size(); ++p) {
    const std::vector<Nanos> whole = drain(profiles[p]);
    for (unsigned shards = 1; shards <= 4; ++shards) {
      std::vector<Nanos> merged;
      double expected = 0.0;
      for (unsigned shard = 0; shard < shards; ++shard) {
        const std::vector<Nanos> part = drain(profiles[p], shard, shards);
        // Shard s takes global arrivals s, s+n, s+2n, ...: the same times, not approximately the same.
        for (std::size_t k = 0; k < part.size(); ++k) {
          ASSERT_LT(shard + k * shards, whole.size());
          ASSERT_EQ(part[k], whole[shard + k * shards])
              << "profile " << p << " shard " << shard << "/" << shards;
        }
        merged.insert(merged.end(), part.begin(), part.end());
        expected += ArrivalSchedule(profiles[p], ArrivalKind::constant, 1, shard, shards).expected_total();
      }
      std::sort(merged.begin(), merged.end());
      EXPECT_EQ(merged, whole) << "profile " << p << " with " << shards << " shards";
      EXPECT_DOUBLE_EQ(expected, static_cast<double>(whole.size()));
    }
  }
}

TEST(ConstantArrivals, RampFromZeroTo1000PerSecondOverTenSecondsGives5000) {
  const RateProfile ramp = parse("10s:1000/s");
  const std::vector<Nanos> times = drain(ramp);
  EXPECT_EQ(times.size(), 5000U);
  EXPECT_TRUE(std::is_sorted(times.begin(), times.end()));
  for (Nanos from = 0s; from < 10s; from += 1s) {
    const double expected = ramp.cumulative(from + 1s) - ramp.cumulative(from);
    EXPECT_NEAR(static_cast<double>(count_in(times, from, from + 1s)), expected, 1.0)
        << "second " << from.count();
  }
}

TEST(ConstantArrivals, CountsPerSecondFollowMultiStageProfiles) {
  const RateProfile profile = parse("30s:100/s,1m:500/s,30s:0/s");
  const std::vector<Nanos> times = drain(profile);
  EXPECT_EQ(times.size(), 27000U);
  for (Nanos from = 0s; from < profile.duration(); from += 1s) {
    const double expected = profile.cumulative(from + 1s) - profile.cumulative(from);
    ASSERT_NEAR(static_cast<double>(count_in(times, from, from + 1s)), expected, 1.0)
        << "second " << from.count();
  }
}

TEST(ConstantArrivals, NothingIsScheduledWhileTheOfferedRateIsZero) {
  const std::vector<Nanos> paused = drain(parse("10s:0/s,0s:100/s,10s:100/s,0s:0/s,5s:0/s"));
  ASSERT_EQ(paused.size(), 1000U);
  EXPECT_EQ(paused.front(), 10s);
  EXPECT_EQ(paused.back(), 19990ms);

  ArrivalSchedule idle(RateProfile::constant(0.0, 10s), ArrivalKind::constant, 1, 0, 1);
  EXPECT_EQ(idle.peek(), std::nullopt);
  EXPECT_EQ(idle.next(), std::nullopt);
  EXPECT_DOUBLE_EQ(idle.expected_total(), 0.0);
}

TEST(ConstantArrivals, LowRatesAndMoreShardsThanArrivals) {
  EXPECT_EQ(drain(RateProfile::constant(0.5, 10s)), (std::vector<Nanos>{0s, 2s, 4s, 6s, 8s}));
  const RateProfile two = RateProfile::constant(1.0, 2s);
  EXPECT_EQ(drain(two, 0, 4), std::vector<Nanos>{0s});
  EXPECT_EQ(drain(two, 1, 4), std::vector<Nanos>{1s});
  EXPECT_TRUE(drain(two, 3, 4).empty());
  EXPECT_DOUBLE_EQ(ArrivalSchedule(two, ArrivalKind::constant, 1, 3, 4).expected_total(), 0.0);
}

TEST(ArrivalKindParsing, AcceptsConstantAndPoissonAndNamesTheFlagOtherwise) {
  EXPECT_EQ(*parse_arrival_kind("constant", "--arrival"), ArrivalKind::constant);
  EXPECT_EQ(*parse_arrival_kind("poisson", "--arrival"), ArrivalKind::poisson);
  EXPECT_EQ(to_string(ArrivalKind::poisson), "poisson");
  auto bad = parse_arrival_kind("uniform", "--arrival");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code, ExitCode::usage);
  EXPECT_EQ(bad.error().message, "--arrival: \"uniform\" is not an arrival process; use constant or poisson");
}
