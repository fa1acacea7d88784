// Tests for RateProfile: stage parsing and errors, λ, Λ and Λ⁻¹ consistency, steps, zero-rate stretches.
#include "workload/rate_profile.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>

using namespace openloop;
using namespace openloop::workload;
using namespace std::chrono_literals;

namespace {

constexpr std::string_view k_form =
    "; stages are duration:rate items separated by commas, e.g. 30s:100/s,1m:500/s,30s:0/s";

RateProfile parse(std::string_view text, double start_rate = 0.0) {
  auto profile = RateProfile::parse_stages(text, "--stages", start_rate);
  EXPECT_TRUE(profile) << (profile ? "" : profile.error().message);
  return *profile;
}

std::string parse_error(std::string_view text) {
  auto profile = RateProfile::parse_stages(text, "--stages");
  EXPECT_FALSE(profile) << text;
  if (profile) return {};
  EXPECT_EQ(profile.error().code, ExitCode::usage);
  return profile.error().message;
}

// Independent reference for Λ⁻¹: bisection over whole nanoseconds for the smallest t with Λ(t) > x.
Nanos bisect_inverse(const RateProfile& p, double x) {
  std::int64_t lo = 0;
  std::int64_t hi = p.duration().count();
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (p.cumulative(Nanos(mid)) > x)
      hi = mid;
    else
      lo = mid + 1;
  }
  return Nanos(lo);
}

}  // namespace

TEST(RateProfileParsing, ReadsK6StyleStagesRampingFromTheStartRate) {
  const RateProfile p = parse("30s:100/s, 1m:500/s,30s:0/s");
  ASSERT_EQ(p.stages().size(), 3U);
  EXPECT_EQ(p.stages()[1].duration, 1min);
  EXPECT_DOUBLE_EQ(p.stages()[1].target_rate, 500.0);
  EXPECT_EQ(p.duration(), 2min);
  EXPECT_DOUBLE_EQ(p.rate_at(0s), 0.0);
  EXPECT_DOUBLE_EQ(p.rate_at(15s), 50.0);
  EXPECT_DOUBLE_EQ(p.rate_at(30s), 100.0);
  EXPECT_DOUBLE_EQ(p.rate_at(60s), 300.0);
  EXPECT_DOUBLE_EQ(p.rate_at(105s), 250.0);
  EXPECT_DOUBLE_EQ(p.rate_at(120s), 0.0);
  EXPECT_DOUBLE_EQ(p.rate_at(-1ns), 0.0);
  EXPECT_DOUBLE_EQ(p.cumulative(30s), 1500.0);
  EXPECT_DOUBLE_EQ(p.cumulative(90s), 19500.0);
  EXPECT_DOUBLE_EQ(p.total_expected(), 27000.0);
  EXPECT_DOUBLE_EQ(p.cumulative(10min), 27000.0);
  EXPECT_DOUBLE_EQ(p.cumulative(-5s), 0.0);
  EXPECT_DOUBLE_EQ(p.max_rate(), 500.0);
}

TEST(RateProfileParsing, FirstStageRampsFromTheGivenStartRateAndRatesTakeUnits) {
  const RateProfile p = parse("10s:6000/m", 50.0);
  EXPECT_DOUBLE_EQ(p.start_rate(), 50.0);
  EXPECT_DOUBLE_EQ(p.rate_at(0s), 50.0);
  EXPECT_DOUBLE_EQ(p.rate_at(5s), 75.0);
  EXPECT_DOUBLE_EQ(p.total_expected(), 750.0);
}

TEST(RateProfileParsing, ErrorsNameTheFlagTheItemAndTheAcceptedForm) {
  EXPECT_EQ(parse_error("30s:100/s,1m500/s"),
            std::string("--stages: item 2 \"1m500/s\": missing ':' between duration and rate") += k_form);
  EXPECT_EQ(parse_error("30s:100/s,"), std::string("--stages: item 2 \"\": empty item") += k_form);
  EXPECT_EQ(parse_error("30s:fast"),
            std::string("--stages: item 1 \"30s:fast\": rate: \"fast\" is not a rate; use "
                        "e.g. 500/s, 30000/m (or 500, meaning per second)") += k_form);
  EXPECT_EQ(
      parse_error("10s:5/s, 10:5/s"),
      std::string("--stages: item 2 \"10:5/s\": duration: \"10\" is not a duration; use e.g. 250ms, 30s, "
                  "2m, 1h30m (units: ns, us, ms, s, m, h)") += k_form);
  EXPECT_EQ(parse_error(" "), std::string("--stages: no stages given") += k_form);
  EXPECT_EQ(parse_error("0s:100/s"),
            std::string("--stages: \"0s:100/s\": the stages add up to zero duration") += k_form);
  EXPECT_NE(parse_error("10s:-5/s").find("item 1 \"10s:-5/s\": rate:"), std::string::npos);
  EXPECT_NE(
      parse_error("2000000h:1/s,2000000h:1/s").find("item 2 \"2000000h:1/s\": stages add up to more than"),
      std::string::npos);
}

// What a scrape's openloop_target_rate shows: the mean over an interval, exact on ramps and across a step.
TEST(RateProfile, MeanRateOverAnIntervalFollowsRampsAndSteps) {
  // 0 → 100/s over 10 s, a step to 300/s held 5 s.
  const RateProfile p = RateProfile::from_stages({{10s, 100.0}, {0s, 300.0}, {5s, 300.0}}, 0.0);
  EXPECT_DOUBLE_EQ(p.mean_rate(0s, 1s), 5.0);
  EXPECT_DOUBLE_EQ(p.mean_rate(4s, 6s), 50.0);
  EXPECT_DOUBLE_EQ(p.mean_rate(9s, 10s), 95.0);
  EXPECT_DOUBLE_EQ(p.mean_rate(10s, 11s), 300.0);
  EXPECT_DOUBLE_EQ(p.mean_rate(9500ms, 10500ms), (97.5 * 0.5 + 300.0 * 0.5) / 1.0);
  EXPECT_DOUBLE_EQ(p.mean_rate(14s, 15s), 300.0);
  EXPECT_DOUBLE_EQ(p.mean_rate(15s, 16s), 0.0);    // after the plan
  EXPECT_DOUBLE_EQ(p.mean_rate(5s, 5s), 50.0);     // an instant: the rate there
  EXPECT_DOUBLE_EQ(p.mean_rate(10s, 10s), 300.0);  // right-continuous at the step
}

TEST(RateProfile, ConstantIsOneFlatStage) {
  const RateProfile p = RateProfile::constant(500.0, 10s);
  EXPECT_EQ(p.duration(), 10s);
  EXPECT_DOUBLE_EQ(p.rate_at(0s), 500.0);
  EXPECT_DOUBLE_EQ(p.rate_at(9999ms), 500.0);
  EXPECT_DOUBLE_EQ(p.rate_at(10s), 0.0);
  EXPECT_DOUBLE_EQ(p.cumulative(2ms), 1.0);
  EXPECT_DOUBLE_EQ(p.total_expected(), 5000.0);
  EXPECT_EQ(p.inverse(0.0), 0ns);
  EXPECT_EQ(p.inverse(1.0), 2ms);
  EXPECT_EQ(p.inverse(0.5), 1ms);
  EXPECT_EQ(p.inverse(5000.0), 10s);
  EXPECT_EQ(p.inverse(5000.5), Nanos::max());
  EXPECT_EQ(p.inverse(std::nan("")), Nanos::max());
  EXPECT_EQ(RateProfile::constant(500.0, 3000s).inverse(1e6), 2000s);
}

TEST(RateProfile, InverseUndoesCumulativeOnRampsAndSteps) {
  for (const char* text : {"30s:100/s,1m:500/s,30s:0/s", "5s:1000/s,2s:37.5/s,0s:250/s,3s:250/s,4s:0/s",
                           "10s:1000/s", "1s:3/s,1s:0.5/s,1s:7/s"}) {
    const RateProfile p = parse(text);
    const std::int64_t step = p.duration().count() / 4999 + 7;
    for (std::int64_t ns = 0; ns < p.duration().count(); ns += step) {
      const Nanos t(ns);
      if (p.rate_at(t) < 1.0) continue;  // where λ ≈ 0, Λ is flat and Λ⁻¹ is ill-conditioned
      EXPECT_NEAR(static_cast<double>(p.inverse(p.cumulative(t)).count()), static_cast<double>(ns), 2.0)
          << text << " at " << ns << "ns";
    }
    for (double x = 0.0; x < p.total_expected(); x += p.total_expected() / 997.0) {
      EXPECT_NEAR(p.cumulative(p.inverse(x)), x, 1e-9 * p.max_rate() + 1e-9) << text << " at x=" << x;
    }
  }
}

TEST(RateProfile, InverseMatchesBisectionOfCumulativeToTheNanosecond) {
  for (const char* text :
       {"30s:100/s,1m:500/s,30s:0/s", "10s:0/s,0s:100/s,10s:100/s,5s:2000/s,0s:0/s,1s:0/s"}) {
    const RateProfile p = parse(text);
    for (double x = 0.0; x < p.total_expected(); x += p.total_expected() / 211.0) {
      // Where λ → 0 a double x cannot pin t to the nanosecond (dt = dx/λ), so compare where λ ≥ 1/s.
      if (p.rate_at(p.inverse(x)) < 1.0) continue;
      EXPECT_NEAR(static_cast<double>(p.inverse(x).count()),
                  static_cast<double>(bisect_inverse(p, x).count()), 1.0)
          << text << " at x=" << x;
    }
  }
}

TEST(RateProfile, ZeroLengthStageIsAStep) {
  const RateProfile p = parse("0s:200/s,10s:200/s,0s:50/s,10s:50/s");
  EXPECT_DOUBLE_EQ(p.rate_at(0s), 200.0);
  EXPECT_DOUBLE_EQ(p.rate_at(9999ms), 200.0);
  EXPECT_DOUBLE_EQ(p.rate_at(10s), 50.0);  // right-continuous: the rate after the step
  EXPECT_DOUBLE_EQ(p.total_expected(), 2500.0);
  EXPECT_EQ(p.inverse(2000.0), 10s);
  EXPECT_EQ(p.inverse(2050.0), 11s);
}

TEST(RateProfile, ArrivalPointsSkipZeroRateStretches) {
  const RateProfile leading = parse("10s:0/s,0s:100/s,10s:100/s");
  EXPECT_EQ(leading.inverse(0.0), 10s);
  EXPECT_EQ(leading.inverse(1.0), 10010ms);

  const RateProfile middle = parse("10s:100/s,0s:0/s,10s:0/s,0s:100/s,10s:100/s", 100.0);
  EXPECT_DOUBLE_EQ(middle.cumulative(15s), 1000.0);
  EXPECT_DOUBLE_EQ(middle.rate_at(15s), 0.0);
  EXPECT_EQ(middle.inverse(999.0), 9990ms);
  EXPECT_EQ(middle.inverse(1000.0), 20s);
  std::size_t cursor = 0;
  EXPECT_EQ(middle.inverse(1000.0, cursor), 20s);

  const RateProfile trailing = parse("10s:100/s,0s:0/s,5s:0/s", 100.0);
  EXPECT_EQ(trailing.duration(), 15s);
  EXPECT_DOUBLE_EQ(trailing.total_expected(), 1000.0);
  EXPECT_EQ(trailing.inverse(1000.0), 10s);  // x = Λ(duration): the smallest t with Λ(t) ≥ x
  EXPECT_EQ(trailing.inverse(1000.1), Nanos::max());
  EXPECT_DOUBLE_EQ(trailing.max_rate(), 100.0);
}

TEST(RateProfile, CursorInverseEqualsPlainInverseWhateverTheCursor) {
  const RateProfile p = parse("5s:1000/s,2s:37.5/s,0s:250/s,3s:250/s,4s:0/s");
  std::size_t forward = 0;
  for (double x = 0.0; x < p.total_expected(); x += 0.37) {
    std::size_t stale = 3;
    ASSERT_EQ(p.inverse(x, forward), p.inverse(x)) << x;
    ASSERT_EQ(p.inverse(x, stale), p.inverse(x)) << x;
  }
  std::size_t past_end = 99;
  EXPECT_EQ(p.inverse(1.0, past_end), p.inverse(1.0));
}

TEST(RateProfile, EqualRateNeighboursBehaveAsOneConstantStage) {
  const RateProfile split = parse("30s:100/s,1m:100/s", 100.0);
  const RateProfile whole = RateProfile::constant(100.0, 90s);
  EXPECT_EQ(split.stages().size(), 2U);
  for (double x = 0.0; x <= 9000.0; x += 12.34) EXPECT_EQ(split.inverse(x), whole.inverse(x));
}

TEST(RateProfile, StepAtTheVeryEndNeverAppliesToMaxRate) {
  EXPECT_DOUBLE_EQ(parse("10s:100/s,0s:900/s").max_rate(), 100.0);
  const RateProfile empty = RateProfile::from_stages({}, 0.0);
  EXPECT_EQ(empty.duration(), 0ns);
  EXPECT_DOUBLE_EQ(empty.max_rate(), 0.0);
  EXPECT_EQ(empty.inverse(0.0), 0ns);
  EXPECT_EQ(empty.inverse(1.0), Nanos::max());
  EXPECT_DOUBLE_EQ(empty.rate_at(0s), 0.0);
}
