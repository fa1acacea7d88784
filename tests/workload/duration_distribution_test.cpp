// Tests for DurationDistribution: every form parses and round-trips, samples have the mean asked for, errors.
#include "workload/duration_distribution.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace openloop;
using namespace openloop::workload;
using namespace std::chrono_literals;

namespace {

double sample_mean_ms(const DurationDistribution& d, int n = 200000) {
  Rng rng(42);
  double total = 0;
  for (int i = 0; i < n; ++i) total += to_millis(d.sample(rng));
  return total / n;
}

DurationDistribution parse(std::string_view text) {
  auto d = DurationDistribution::parse(text, "--think");
  EXPECT_TRUE(d) << (d ? "" : d.error().message);
  return d ? *d : DurationDistribution();
}

std::string parse_error(std::string_view text) {
  auto d = DurationDistribution::parse(text, "--think");
  EXPECT_FALSE(d) << text;
  if (d) return {};
  EXPECT_EQ(d.error().code, ExitCode::usage);
  return d.error().message;
}

constexpr std::string_view k_accepted =
    "; accepted: a duration (1s, 250ms, 0), exp:MEAN, lognormal:MEAN,SIGMA, uniform:MIN..MAX";

}  // namespace

TEST(DurationDistribution, ParsesEveryFormWithItsParameters) {
  EXPECT_EQ(parse("1s"), DurationDistribution::constant(1s));
  EXPECT_EQ(parse("0"), DurationDistribution::constant(0s));
  EXPECT_TRUE(parse("0").is_zero());
  EXPECT_EQ(parse("exp:1s"), DurationDistribution::exponential(1s));
  EXPECT_EQ(parse("exponential:250ms"), DurationDistribution::exponential(250ms));
  EXPECT_EQ(parse("lognormal:1ms,0.5"), DurationDistribution::lognormal(1ms, 0.5));
  EXPECT_EQ(parse("lognormal:1ms, 0.5"), DurationDistribution::lognormal(1ms, 0.5));
  EXPECT_EQ(parse("uniform:0.5s..1.5s"), DurationDistribution::uniform(500ms, 1500ms));
  EXPECT_EQ(parse(" uniform:1ms..1ms "), DurationDistribution::uniform(1ms, 1ms));
}

TEST(DurationDistribution, CanonicalTextParsesBackToTheSameDistribution) {
  for (const char* text : {"1s", "0", "exp:1s", "lognormal:1ms,0.5", "uniform:0.5s..1.5s", "1.234567ms",
                           "exp:90s", "uniform:1ns..3ns", "lognormal:2m,1.25"}) {
    const DurationDistribution d = parse(text);
    EXPECT_EQ(parse(d.to_string()), d) << text << " -> " << d.to_string();
  }
  EXPECT_EQ(parse("1500ms").to_string(), "1.5s");
  EXPECT_EQ(parse("uniform:0.5s..1.5s").to_string(), "uniform:500ms..1.5s");
}

TEST(DurationDistribution, EveryShapeHasTheMeanItWasGiven) {
  EXPECT_NEAR(sample_mean_ms(parse("exp:1ms")), 1.0, 0.02);
  EXPECT_NEAR(sample_mean_ms(parse("lognormal:1ms,0.5")), 1.0, 0.02);
  EXPECT_NEAR(sample_mean_ms(parse("uniform:1ms..3ms")), 2.0, 0.02);
  EXPECT_EQ(sample_mean_ms(parse("2ms"), 10), 2.0);
  EXPECT_EQ(parse("exp:1s").mean(), 1s);
  EXPECT_EQ(parse("lognormal:1ms,0.5").mean(), 1ms);
  EXPECT_EQ(parse("uniform:1ms..3ms").mean(), 2ms);
}

TEST(DurationDistribution, LognormalMedianIsTheMeanTimesExpOfMinusHalfSigmaSquared) {
  const DurationDistribution d = parse("lognormal:10ms,0.8");
  Rng rng(3);
  std::vector<double> ms(100001);
  for (double& v : ms) v = to_millis(d.sample(rng));
  std::nth_element(ms.begin(), ms.begin() + 50000, ms.end());
  EXPECT_NEAR(ms[50000], 10.0 * std::exp(-0.8 * 0.8 / 2), 0.1);
}

TEST(DurationDistribution, UniformStaysWithinItsBoundsAndReachesBoth) {
  const DurationDistribution d = parse("uniform:1ns..3ns");
  Rng rng(1);
  bool seen[4] = {};
  for (int i = 0; i < 1000; ++i) {
    const auto v = d.sample(rng).count();
    ASSERT_GE(v, 1);
    ASSERT_LE(v, 3);
    seen[v] = true;
  }
  EXPECT_TRUE(seen[1] && seen[2] && seen[3]);
}

TEST(DurationDistribution, SameSeedGivesTheSameSamples) {
  const DurationDistribution d = parse("exp:1s");
  Rng a(9, 2), b(9, 2), c(9, 3);
  bool differs = false;
  for (int i = 0; i < 100; ++i) {
    const Nanos x = d.sample(a);
    EXPECT_EQ(x, d.sample(b));
    differs = differs || x != d.sample(c);
  }
  EXPECT_TRUE(differs);
}

TEST(DurationDistribution, HugeMeansSaturateInsteadOfOverflowing) {
  const DurationDistribution d = DurationDistribution::exponential(Nanos(Nanos::max().count() / 2));
  Rng rng(5);
  for (int i = 0; i < 1000; ++i) EXPECT_GE(d.sample(rng).count(), 0);
  EXPECT_EQ(DurationDistribution::lognormal(0ns, 1.0).sample(rng), 0ns);
}

TEST(DurationDistribution, RejectsBadFormsNamingTheInputWhyAndTheAcceptedForms) {
  EXPECT_EQ(
      parse_error("fast"),
      std::string("--think: \"fast\" is not a duration distribution (\"fast\" is not a duration such as "
                  "250us, 1ms or 2s)") +
          std::string(k_accepted));
  EXPECT_EQ(parse_error(""),
            std::string("--think: \"\" is not a duration distribution (\"\" is not a duration "
                        "such as 250us, 1ms or 2s)") +
                std::string(k_accepted));
  EXPECT_EQ(parse_error("exp:"),
            std::string("--think: \"exp:\" is not a duration distribution (\"\" is not a "
                        "duration such as 250us, 1ms or 2s)") +
                std::string(k_accepted));
  EXPECT_EQ(
      parse_error("lognormal:1ms"),
      std::string("--think: \"lognormal:1ms\" is not a duration distribution (lognormal needs MEAN,SIGMA)") +
          std::string(k_accepted));
  EXPECT_EQ(
      parse_error("lognormal:1ms,-1"),
      std::string("--think: \"lognormal:1ms,-1\" is not a duration distribution (sigma \"-1\" must be a "
                  "number in [0, 10])") +
          std::string(k_accepted));
  EXPECT_EQ(
      parse_error("uniform:3ms..1ms"),
      std::string("--think: \"uniform:3ms..1ms\" is not a duration distribution (MIN must not exceed MAX)") +
          std::string(k_accepted));
  EXPECT_EQ(
      parse_error("uniform:1ms-3ms"),
      std::string("--think: \"uniform:1ms-3ms\" is not a duration distribution (uniform needs MIN..MAX)") +
          std::string(k_accepted));
  EXPECT_EQ(parse_error("gauss:1ms"),
            std::string("--think: \"gauss:1ms\" is not a duration distribution (unknown kind \"gauss\")") +
                std::string(k_accepted));
}
