// compare's power on virtual time: pairs of seeded simulated runs against the lab's service model, compared
// as `openloop compare` compares two results files (each run's own independence check, its seconds, the
// change's interval from both). Identical configurations must rarely differ (false alarms ≤ 5 % of 200
// pairs); a service twice as slow must be found (≥ 98 %), and its gate fail rather than pass or stay
// inconclusive. The seeds are fixed: the test is deterministic.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "compare/comparison.h"
#include "sim_plans.h"

using namespace openloop;
using namespace openloop::sim::testing;
using namespace std::chrono_literals;

namespace {

// 200/s of Poisson arrivals for 4 s (800 measured requests) after a 1 s warm-up against the lab's model
// `lab` (e.g. "--workers 1 --service exp:2ms": utilisation 0.4, samples correlated over a few requests): the
// issue's two short runs.
report::ReportInput simulated(const std::string& lab, int seed, const std::string& name) {
  engine::RunPlan plan = open_plan(200, 4s, 1s);
  plan.seed = static_cast<std::uint64_t>(seed);
  report::ReportInput in;
  in.source = name;
  in.results = run(plan, lab + " --seed " + std::to_string(7000 + seed));
  return in;
}

struct Tally {
  int pairs = 0, significant = 0, p50_moved = 0, gate_fail = 0, gate_pass = 0, gate_inconclusive = 0;
};

Tally compare_pairs(int pairs, const std::string& baseline_lab, const std::string& candidate_lab,
                    int seed_base) {
  compare::CompareSettings s;
  s.gates = {*compare::parse_fail_on("p50>+10%")};
  s.allow_different_plans = true;  // the plans differ by their seeds only
  Tally t;
  for (int i = 0; i < pairs; ++i) {
    const auto b = simulated(baseline_lab, seed_base + 2 * i, "baseline.json");
    const auto k = simulated(candidate_lab, seed_base + 2 * i + 1, "candidate.json");
    const auto c = compare::compare_runs(b, k, s);
    EXPECT_TRUE(c) << c.error().message;
    if (!c) continue;
    ++t.pairs;
    t.significant += c->significant ? 1 : 0;
    for (const auto& q : c->percentiles)
      if (q.percentile == 50 && q.direction != compare::Direction::unchanged) ++t.p50_moved;
    const compare::Outcome o = c->gates.at(0).outcome;
    t.gate_fail += o == compare::Outcome::fail ? 1 : 0;
    t.gate_pass += o == compare::Outcome::pass ? 1 : 0;
    t.gate_inconclusive += o == compare::Outcome::inconclusive ? 1 : 0;
  }
  return t;
}

void print(const char* what, const Tally& t) {
  std::printf("%s: %d pairs, any significant %d, p50 moved %d; gate p50>+10%%: fail %d, pass %d, "
              "inconclusive %d\n",
              what, t.pairs, t.significant, t.p50_moved, t.gate_fail, t.gate_pass, t.gate_inconclusive);
}

}  // namespace

TEST(ComparePower, IdenticalConfigurationsRaiseFalseAlarmsInAtMostFivePercentOf200Pairs) {
  const Tally t = compare_pairs(200, "--workers 1 --service exp:2ms", "--workers 1 --service exp:2ms", 1);
  print("identical (one worker, exp:2ms, both)", t);
  RecordProperty("false_alarms", t.significant);
  ASSERT_EQ(t.pairs, 200);
  // Every quantity (4 percentiles, 3 rates, 3 fractions) at once at 95 %: at most 10 of 200 pairs.
  EXPECT_LE(t.significant, 10) << "pairs with a significant difference";
  EXPECT_LE(t.gate_fail, 2) << "a +10 % gate failed on identical configurations";
}

// A service twice as slow at low utilisation (8 workers, 5 % → 10 % busy: p50 about ×2): the p50 moves and
// the +10 % gate fails in at least 98 of 100 pairs. At one worker (ρ 0.4 → 0.8) the candidate's samples are
// correlated over hundreds of milliseconds (its relaxation time S/(1 − √ρ)² is 0.36 s), so 800 of them carry
// little information: the comparison must still flag a difference (some quantity) in 98 of 100.
TEST(ComparePower, ATwiceSlowerServiceIsDetectedInAtLeast98PercentOfPairs) {
  const Tally t = compare_pairs(100, "--workers 8 --service exp:2ms", "--workers 8 --service exp:4ms", 1001);
  print("2x service (8 workers, exp:2ms vs exp:4ms)", t);
  RecordProperty("detected", t.p50_moved);
  ASSERT_EQ(t.pairs, 100);
  EXPECT_GE(t.p50_moved, 98);
  EXPECT_GE(t.gate_fail, 98) << "the p50>+10% gate should fail, not pass or stay inconclusive";
  EXPECT_EQ(t.gate_pass, 0);
  const Tally busy = compare_pairs(100, "--workers 1 --service exp:2ms", "--workers 1 --service exp:4ms", 3001);
  print("2x service (one worker, exp:2ms vs exp:4ms)", busy);
  EXPECT_GE(busy.significant, 98);
  EXPECT_EQ(busy.gate_pass, 0);
}

// The case: a p50 40 % higher with 800 samples each at low utilisation (8 workers, 5 % busy: the
// response time is the service time, the samples nearly independent), detected in at least 90 % of pairs.
TEST(ComparePower, AFortyPercentP50ShiftAt800SamplesIsDetectedInAtLeast90Percent) {
  const Tally t = compare_pairs(100, "--workers 8 --service exp:2ms", "--workers 8 --service exp:2.8ms", 5001);
  print("+40 % service (8 workers, exp:2ms vs exp:2.8ms)", t);
  RecordProperty("detected", t.p50_moved);
  ASSERT_EQ(t.pairs, 100);
  EXPECT_GE(t.p50_moved, 90);
}
