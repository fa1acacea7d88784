// The --fail-on grammar and when a gate trips.
#include "compare/fail_on.h"

#include <gtest/gtest.h>

#include "compare/compare_report.h"
#include "compare/ramp_comparison.h"

namespace openloop::compare {
namespace {

TEST(ParseFailOn, AcceptsEveryDocumentedForm) {
  auto p99 = parse_fail_on("p99>+10%");
  ASSERT_TRUE(p99) << p99.error().message;
  EXPECT_EQ(p99->metric, FailOn::Metric::percentile);
  EXPECT_EQ(p99->percentile, 99);
  EXPECT_EQ(p99->op, FailOn::Op::gt);
  EXPECT_DOUBLE_EQ(p99->bound, 0.10);
  auto p999 = parse_fail_on(" p99.9 >= 25% ");
  ASSERT_TRUE(p999);
  EXPECT_EQ(p999->percentile, 99.9);
  EXPECT_EQ(p999->op, FailOn::Op::ge);
  EXPECT_DOUBLE_EQ(p999->bound, 0.25);
  EXPECT_EQ(p999->text, "p99.9 >= 25%");
  auto goodput = parse_fail_on("goodput<-1%");
  ASSERT_TRUE(goodput);
  EXPECT_EQ(goodput->metric, FailOn::Metric::goodput);
  EXPECT_EQ(goodput->op, FailOn::Op::lt);
  EXPECT_DOUBLE_EQ(goodput->bound, -0.01);
  auto errors = parse_fail_on("errors>+0.5%");
  ASSERT_TRUE(errors);
  EXPECT_EQ(errors->metric, FailOn::Metric::errors);
  EXPECT_DOUBLE_EQ(errors->bound, 0.005);
  EXPECT_EQ(parse_fail_on("timeouts<=0%")->metric, FailOn::Metric::timeouts);
  EXPECT_EQ(parse_fail_on("dropped>1%")->metric, FailOn::Metric::dropped);
  EXPECT_EQ(parse_fail_on("throughput<-5%")->metric, FailOn::Metric::throughput);
  EXPECT_EQ(metric_name(*p999), "p99.9");
  auto capacity = parse_fail_on("capacity<-5%");
  ASSERT_TRUE(capacity);
  EXPECT_EQ(capacity->metric, FailOn::Metric::capacity);
  EXPECT_DOUBLE_EQ(capacity->bound, -0.05);
  EXPECT_EQ(metric_name(*capacity), "capacity");
}

TEST(ParseFailOn, RefusesWithTheTextAndTheAcceptedForms) {
  for (const char* bad : {"p99", "p99>10", "p99>+ten%", "latency>10%", "p100>10%", "p0>1%", ">10%", "p99>%",
                          "p99=>10%", "pxx>10%"}) {
    auto r = parse_fail_on(bad);
    ASSERT_FALSE(r) << bad;
    EXPECT_EQ(r.error().code, ExitCode::usage);
    EXPECT_NE(r.error().message.find(std::string("'") + bad + "'"), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find("accepted:"), std::string::npos) << r.error().message;
  }
}

TEST(JudgeFailOn, FailsWhenTheWholeIntervalIsPastPassesWhenNoneIsElseInconclusive) {
  const FailOn g = *parse_fail_on("p99>+10%");
  const FailOnResult tripped = judge_fail_on(g, 0.18, 0.12, 0.24, Direction::increased);
  EXPECT_TRUE(tripped.evaluated);
  EXPECT_EQ(tripped.outcome, Outcome::fail);
  EXPECT_TRUE(tripped.failed);
  EXPECT_FALSE(tripped.longer);
  EXPECT_NE(tripped.message.find("p99 +18.0 % [+12.0 %, +24.0 %]"), std::string::npos) << tripped.message;
  // The interval holds +10 %: the data cannot tell. Counted as failed by default, passed on request.
  const FailOnResult noisy = judge_fail_on(g, 0.15, -0.05, 0.40, Direction::unchanged);
  EXPECT_EQ(noisy.outcome, Outcome::inconclusive);
  EXPECT_TRUE(noisy.evaluated);
  EXPECT_TRUE(noisy.failed);
  EXPECT_NE(noisy.message.find("inconclusive"), std::string::npos) << noisy.message;
  EXPECT_NE(noisy.message.find("--inconclusive fail"), std::string::npos) << noisy.message;
  EXPECT_FALSE(judge_fail_on(g, 0.15, -0.05, 0.40, Direction::unchanged, InconclusivePolicy::pass).failed);
  // Significant but within the bound all along: passed. Within the bound but reaching past it: inconclusive.
  EXPECT_EQ(judge_fail_on(g, 0.05, 0.02, 0.08, Direction::increased).outcome, Outcome::pass);
  EXPECT_FALSE(judge_fail_on(g, 0.05, 0.02, 0.08, Direction::increased).failed);
  EXPECT_EQ(judge_fail_on(g, 0.05, 0.0, 0.12, Direction::increased).outcome, Outcome::inconclusive);
  // A significant improvement never trips an upper gate.
  EXPECT_EQ(judge_fail_on(g, -0.3, -0.4, -0.2, Direction::decreased).outcome, Outcome::pass);
  const FailOn loss = *parse_fail_on("goodput<-1%");
  EXPECT_EQ(judge_fail_on(loss, -0.05, -0.06, -0.04, Direction::decreased).outcome, Outcome::fail);
  EXPECT_EQ(judge_fail_on(loss, -0.005, -0.006, -0.004, Direction::decreased).outcome, Outcome::pass);
}

// The half-width facing the bound shrinks as 1/√length: here it is twice the estimate's distance to the
// bound, so runs four times as long would decide.
TEST(JudgeFailOn, AnInconclusiveGateSaysHowMuchLongerRunsWouldDecide) {
  const FailOn points = *parse_fail_on("errors>+1%");
  const FailOnResult r = judge_fail_on(points, 0.02, 0.0, 0.04, Direction::unchanged);
  ASSERT_EQ(r.outcome, Outcome::inconclusive);
  ASSERT_TRUE(r.longer);
  EXPECT_NEAR(*r.longer, 4.0, 1e-9);
  EXPECT_NE(r.message.find("4x as long"), std::string::npos) << r.message;
  // Relative changes on the log scale: +21 % with its low end at 0 %: ln 1.21 − ln 1 is twice ln 1.21 − ln 1.1.
  const FailOnResult rel = judge_fail_on(*parse_fail_on("p99>+10%"), 0.21, 0.0, 0.46, Direction::unchanged);
  ASSERT_TRUE(rel.longer);
  EXPECT_NEAR(*rel.longer, 4.0, 0.01);
  // On the bound: no length decides.
  EXPECT_FALSE(judge_fail_on(points, 0.01, -0.01, 0.03, Direction::unchanged).longer);
}

TEST(JudgeFailOn, AZeroBoundFailsOnAnySignificantChangeThatWayAndPassesOtherwise) {
  const FailOn g = *parse_fail_on("timeouts>0%");
  EXPECT_EQ(judge_fail_on(g, 0.0, -0.0004, 0.0004, Direction::unchanged).outcome, Outcome::pass);
  EXPECT_EQ(judge_fail_on(g, 0.01, 0.005, 0.015, Direction::increased).outcome, Outcome::fail);
}

TEST(JudgeFailOn, AGateThatCannotBeJudgedIsInconclusiveAndFailsByDefault) {
  const FailOn g = *parse_fail_on("p99.9>+10%");
  const FailOnResult r = judge_fail_on(g, 0.2, std::nullopt, std::nullopt, Direction::unknown);
  EXPECT_FALSE(r.evaluated);
  EXPECT_EQ(r.outcome, Outcome::inconclusive);
  EXPECT_TRUE(r.failed);
  EXPECT_NE(r.message.find("too few samples"), std::string::npos) << r.message;
  EXPECT_TRUE(judge_fail_on(g, std::nullopt, std::nullopt, std::nullopt, Direction::unknown).failed);
  EXPECT_FALSE(
      judge_fail_on(g, std::nullopt, std::nullopt, std::nullopt, Direction::unknown, InconclusivePolicy::pass)
          .failed);
}

TEST(InconclusivePolicy, ParsesFailAndPassAndNamesTheFlagOtherwise) {
  EXPECT_EQ(*parse_inconclusive_policy("fail"), InconclusivePolicy::fail);
  EXPECT_EQ(*parse_inconclusive_policy("pass"), InconclusivePolicy::pass);
  const auto bad = parse_inconclusive_policy("maybe");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("--inconclusive 'maybe'"), std::string::npos) << bad.error().message;
}

// Runs and ramps write their gates in one shape, under one key, beside one "failed".
TEST(FailOnJson, RunsAndRampsWriteTheSameShape) {
  FailOnResult tripped;
  tripped.gate = *parse_fail_on("capacity<-5%");
  tripped.evaluated = true;
  tripped.outcome = Outcome::fail;
  tripped.failed = true;
  tripped.message = "capacity -18 % is significant and < -5 %";
  FailOnResult unknown;
  unknown.gate = *parse_fail_on("capacity<-50%");
  unknown.message = "not evaluated";
  unknown.failed = true;
  FailOnResult undecided;
  undecided.gate = *parse_fail_on("capacity<-10%");
  undecided.evaluated = true;
  undecided.longer = 2.5;
  undecided.message = "inconclusive";
  Comparison runs;
  runs.gates = {tripped, unknown, undecided};
  RampComparison ramps;
  ramps.gates = runs.gates;
  const nlohmann::json from_runs = to_json(runs), from_ramps = ramp_comparison_json(ramps);
  const nlohmann::json expected = nlohmann::json::parse(R"([
    {"text": "capacity<-5%", "outcome": "fail", "evaluated": true, "failed": true, "longer": null,
     "message": "capacity -18 % is significant and < -5 %"},
    {"text": "capacity<-50%", "outcome": "inconclusive", "evaluated": false, "failed": true, "longer": null,
     "message": "not evaluated"},
    {"text": "capacity<-10%", "outcome": "inconclusive", "evaluated": true, "failed": false, "longer": 2.5,
     "message": "inconclusive"}])");
  EXPECT_EQ(from_runs.at("fail_on"), expected);
  EXPECT_EQ(from_ramps.at("fail_on"), expected);
  EXPECT_EQ(from_runs.at("failed"), true);
  EXPECT_EQ(from_ramps.at("failed"), true);
  EXPECT_FALSE(from_ramps.contains("gates"));
}

}  // namespace
}  // namespace openloop::compare
